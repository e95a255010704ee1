// The local day the dashboard's ranges count from. A dashboard left open past midnight moves on
// to the new day when the user next interacts with the page or the tab becomes visible again:
// Last 30 days, Current Month and Previous Month then cover the new day, and their data is fetched.
import { DateTime } from 'luxon';
import { useSyncExternalStore } from 'react';

/** What makes the page look at the clock again. */
const INTERACTIONS = ['pointerdown', 'keydown', 'focus'] as const;

function subscribe(onChange: () => void): () => void {
  document.addEventListener('visibilitychange', onChange);
  for (const type of INTERACTIONS) window.addEventListener(type, onChange, { capture: true, passive: true });
  return () => {
    document.removeEventListener('visibilitychange', onChange);
    for (const type of INTERACTIONS) window.removeEventListener(type, onChange, { capture: true });
  };
}

/** Today as 'yyyy-MM-dd' in the browser's time zone: a string, so that React sees the same day as unchanged. */
const localToday = () => DateTime.now().toISODate() ?? '';

export function useToday(): string {
  return useSyncExternalStore(subscribe, localToday);
}

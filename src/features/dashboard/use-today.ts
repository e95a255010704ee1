// The local day the ranges count from; past midnight it moves on at the next interaction or when
// the tab is shown again, and the ranges' data is fetched for the new day.
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

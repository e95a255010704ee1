// The tag manager (VITE_GTM_ID) loads with the first page that is not an invite's: it records the
// page's URL, and an invite's id is a secret that creates an account for its affiliate. A visit
// that starts on an invite loads it once the user has left the invite page (signed up, or gone to
// login). Events wait in window.dataLayer meanwhile.
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { loadTagManager } from '../session/data-layer.ts';

export function TagManager({ gtmId }: { gtmId: string | undefined }) {
  const [location] = useLocation();
  const onInvite = location.startsWith('/invite/');
  useEffect(() => {
    if (gtmId && !onInvite) loadTagManager(window, gtmId);
  }, [gtmId, onInvite]);
  return null;
}

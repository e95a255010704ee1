// The affiliates a superuser viewed the portal as most recently, per username, in localStorage
// under "view_as_recent" ({"admin": ["AFF-120", "AFF-100"]}): ids only, the newest first.
import { RECENT_CHOICES } from '../../components/affiliate-options.ts';

export const RECENT_CHOICES_KEY = 'view_as_recent';

type RecentChoices = Record<string, string[]>;

function readAll(storage: Storage): RecentChoices {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(RECENT_CHOICES_KEY) ?? '{}');
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as RecentChoices) : {};
  } catch {
    return {}; // unreadable or unavailable: no recent choices
  }
}

const idsOf = (all: RecentChoices, username: string): string[] => {
  const ids = all[username];
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string').slice(0, RECENT_CHOICES) : [];
};

/** The user's recent choices, the newest first. */
export function readRecentChoices(storage: Storage, username: string): string[] {
  return idsOf(readAll(storage), username);
}

/** Puts `affiliateId` first among the user's recent choices, keeping five; answers the list as it is kept now. */
export function rememberRecentChoice(storage: Storage, username: string, affiliateId: string): string[] {
  const all = readAll(storage);
  const before = idsOf(all, username);
  const after = [affiliateId, ...before.filter((id) => id !== affiliateId)].slice(0, RECENT_CHOICES);
  try {
    storage.setItem(RECENT_CHOICES_KEY, JSON.stringify({ ...all, [username]: after }));
    return after;
  } catch {
    return before; // storage full or unavailable: the list stays as it was
  }
}

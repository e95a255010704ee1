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

/** The user's recent choices, the newest first. */
export function readRecentChoices(storage: Storage, username: string): string[] {
  const ids = readAll(storage)[username];
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string').slice(0, RECENT_CHOICES) : [];
}

/** Puts `affiliateId` first among the user's recent choices, keeping five. */
export function rememberRecentChoice(storage: Storage, username: string, affiliateId: string): void {
  const all = readAll(storage);
  all[username] = [affiliateId, ...readRecentChoices(storage, username).filter((id) => id !== affiliateId)].slice(0, RECENT_CHOICES);
  try {
    storage.setItem(RECENT_CHOICES_KEY, JSON.stringify(all));
  } catch {
    // storage full or unavailable: the list stays as it was
  }
}

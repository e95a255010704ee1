// The start of the dashboard's worker and its early calls, per session (the session's calls),
// while it is under way: the dashboard's own calls wait for it, so that the worker hears of the
// calls made for it first. Part of the entry.
export const opening = new WeakMap<object, Promise<unknown>>();

// Cached data that holds something outside the cache (a list the dashboard's worker keeps) carries
// a function under this key; the cache calls it once it no longer holds the data.
export const RELEASE = Symbol('release');

export function release(data: unknown): void {
  if (typeof data === 'object' && data !== null && RELEASE in data) (data as { [RELEASE]: () => void })[RELEASE]();
}

// The floor of the dashboard's load in the browser bench: a bare page that fetches the two lists
// the dashboard needs (payment events and connection fees, with the dashboard's range query from
// this page's own query string and the stored Bearer token) and parses them with JSON.parse,
// then writes their lengths. Nothing the dashboard does can take less than this.
const stored = localStorage.getItem('auth_token');
const access = stored ? (JSON.parse(stored) as { access: string }).access : '';
const output = document.getElementById('floor');

async function list(path: string): Promise<unknown[]> {
  const response = await fetch(`/api/v2/${path}${location.search}`, {
    headers: { Accept: 'application/json', Authorization: `Bearer ${access}` },
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return JSON.parse(await response.text()) as unknown[];
}

Promise.all([list('payment_events/'), list('connection_fees/')]).then(
  ([events, fees]) => {
    if (output) output.textContent = `${events.length} payment events, ${fees.length} connection fees`;
  },
  (error: unknown) => {
    if (output) output.textContent = `Failed: ${String(error)}`;
  },
);

// The chart's axis text, axis lines and grid in the colours of the page's theme (light or dark,
// following the system: styles.css). nivo draws them from a theme object, not from CSS, so the
// colours are read from the CSS custom properties and read again when the system setting changes.
// Where no style sheet is loaded (jsdom) the light colours stand.
import { useMemo, useSyncExternalStore } from 'react';

const DARK = '(prefers-color-scheme: dark)';

/** The custom properties read, with their light values. */
const tokens = {
  text: ['--color-text-muted', '#52606d'],
  axis: ['--color-border', '#d3d9de'],
  grid: ['--color-chart-grid', '#e4e7eb'],
} as const;

function subscribe(onChange: () => void): () => void {
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK) : null;
  media?.addEventListener('change', onChange);
  return () => media?.removeEventListener('change', onChange);
}

/** The three colours as one string, so that an unchanged theme is an unchanged snapshot. */
function colours(): string {
  const style = getComputedStyle(document.documentElement);
  return Object.values(tokens)
    .map(([property, light]) => style.getPropertyValue(property).trim() || light)
    .join('|');
}

export function useChartTheme() {
  const snapshot = useSyncExternalStore(subscribe, colours);
  return useMemo(() => {
    const [text, axis, grid] = snapshot.split('|');
    return {
      text: { fontFamily: 'inherit', fontSize: 12, fill: text },
      axis: { domain: { line: { stroke: axis, strokeWidth: 1 } }, ticks: { line: { stroke: axis } } },
      grid: { line: { stroke: grid, strokeWidth: 1 } },
    };
  }, [snapshot]);
}

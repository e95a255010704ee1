// The chart's code (@nivo, d3): a chunk of its own that /login never downloads, loaded while the
// dashboard's data is on its way (dashboard-preload.ts) so that the bars draw with the figures.
import { lazyModule } from '../../components/lazy-module.ts';

export const chartModule = lazyModule(() => import('./daily-chart.tsx'));

// The chart's code (@nivo, d3): a chunk of its own that /login never downloads, loaded as the
// dashboard opens, while its data is on its way, so that the bars draw with the figures.
import { lazyModule } from '../../components/lazy-module.ts';

export const chartModule = lazyModule(() => import('./daily-chart.tsx'));

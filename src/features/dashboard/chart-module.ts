// The chart's code (@nivo, d3): a chunk /login never downloads, loaded beside the dashboard's data.
import { lazyModule } from '../../components/lazy-module.ts';

export const chartModule = lazyModule(() => import('./daily-chart.tsx'));

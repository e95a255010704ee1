// The build-time configuration (see README, Deploying), as parse-env.ts made it of the VITE_
// variables when the build started (vite.config.ts puts it in as __APP_CONFIG__).
import type { Env } from './parse-env.ts';

export type { Env };

export const env: Env = Object.freeze(__APP_CONFIG__);

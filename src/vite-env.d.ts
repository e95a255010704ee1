/// <reference types="vite/client" />

// Only the variables declared here may be read from import.meta.env.
interface ViteTypeOptions {
  strictImportMetaEnv: unknown;
}

// Build-time configuration (see README, Deploying): the VITE_ variables, parsed and validated by
// src/config/parse-env.ts when the build starts, which the page receives as __APP_CONFIG__.
interface ImportMetaEnv {
  /** Base of the v2 API, default "/api/v2/". */
  readonly VITE_API_BASE_URL?: string;
  /** Google Tag Manager container id ("GTM-XXXXXXX"); the snippet loads only when set. */
  readonly VITE_GTM_ID?: string;
  /** Public web site the logo links to, default "https://www.example.com". */
  readonly VITE_PUBLIC_SITE_URL?: string;
  /** ISO 4217 currency code for amounts, default "USD". */
  readonly VITE_CURRENCY?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** The parsed configuration (vite.config.ts); src/config/env.ts hands it on. */
declare const __APP_CONFIG__: import('./config/parse-env.ts').Env;
/** The year of the build (vite.config.ts), which the page prerendered at build time shows. */
declare const __BUILD_YEAR__: number;

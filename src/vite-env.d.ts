/// <reference types="vite/client" />

// Only the variables declared here may be read from import.meta.env.
interface ViteTypeOptions {
  strictImportMetaEnv: unknown;
}

// Build-time configuration, parsed and validated in src/config/env.ts (decisions.md section 1).
interface ImportMetaEnv {
  /** Base of the v2 API, default "/api/v2/". */
  readonly VITE_API_BASE_URL?: string;
  /** Google Tag Manager container id ("GTM-XXXXXXX"); the snippet loads only when set. */
  readonly VITE_GTM_ID?: string;
  /** Public web site the logo links to, default "https://www.example.com". */
  readonly VITE_PUBLIC_SITE_URL?: string;
  /** ISO 4217 currency code for amounts, default "USD". */
  readonly VITE_CURRENCY?: string;
  /** The year of the build (vite.config.ts), which the prerendered page's footer shows. */
  readonly BUILD_YEAR: number;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

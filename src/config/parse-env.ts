// Build-time configuration (see README, Deploying): the VITE_ variables, parsed and checked when
// Vite loads its config (vite.config.ts), so that a wrong value stops the build or the dev
// server with a readable message, and the browser receives only the parsed values (env.ts).
// A blank value counts as unset, so `VITE_GTM_ID=` in a .env file means "no tag manager".
import * as z from 'zod/mini';

const variableNames = ['VITE_API_BASE_URL', 'VITE_GTM_ID', 'VITE_PUBLIC_SITE_URL', 'VITE_CURRENCY'] as const;

/** The raw variables; values are checked, so anything may come in. */
export type RawEnv = Readonly<Partial<Record<(typeof variableNames)[number], unknown>>>;

const isHttpUrl = (value: string): boolean => {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
};

const envSchema = z.object({
  VITE_API_BASE_URL: z._default(
    z
      .string()
      .check(z.refine((value) => value.startsWith('/') || isHttpUrl(value), 'must be a path starting with "/" or an absolute http(s) URL')),
    '/api/v2/',
  ),
  VITE_GTM_ID: z.optional(z.string().check(z.regex(/^GTM-[A-Z0-9]+$/, 'must be "GTM-" followed by capital letters or digits'))),
  VITE_PUBLIC_SITE_URL: z._default(z.string().check(z.refine(isHttpUrl, 'must be an absolute http(s) URL')), 'https://www.example.com'),
  VITE_CURRENCY: z._default(z.string().check(z.regex(/^[A-Z]{3}$/, 'must be a currency code of 3 capital letters')), 'USD'),
});

export type Env = Readonly<{
  /** Base of every API path, always ending with "/" (`${apiBaseUrl}token/`). */
  apiBaseUrl: string;
  /** Google Tag Manager container id, when the snippet should be loaded. */
  gtmId: string | undefined;
  /** Public web site the logo links to, without a trailing slash. */
  publicSiteUrl: string;
  /** ISO 4217 code used for every amount shown. */
  currency: string;
}>;

const blankAsUnset = (value: unknown): unknown => (typeof value === 'string' ? value.trim() || undefined : value);

export function parseEnv(raw: RawEnv): Env {
  const input = Object.fromEntries(variableNames.map((name) => [name, blankAsUnset(raw[name])]));

  const result = envSchema.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `- ${name} ${issue.message} (got ${JSON.stringify(input[name])})`;
    });
    throw new Error(`Invalid configuration in import.meta.env:\n${problems.join('\n')}`);
  }

  const values = result.data;
  return Object.freeze({
    apiBaseUrl: values.VITE_API_BASE_URL.endsWith('/') ? values.VITE_API_BASE_URL : `${values.VITE_API_BASE_URL}/`,
    gtmId: values.VITE_GTM_ID,
    publicSiteUrl: values.VITE_PUBLIC_SITE_URL.replace(/\/+$/, ''),
    currency: values.VITE_CURRENCY,
  });
}

// A Vite plugin that writes the login page into the built index.html: #root holds what the app
// renders on /login signed out (rendered from the app's own components by src/app/prerender.tsx,
// so it cannot drift from them), and an inline script in <head> (src/features/auth/
// prerendered-login.ts) hides it where it is not the page to show and holds an early Login. The
// first paint then shows a form that can be typed into, before any of the app's code has run.
// The app's stylesheet is written into the page as well: that first paint then waits for no
// other request.
import path from 'node:path';
import { minifySync, runnerImport, type Plugin, type ResolvedConfig, type Rolldown } from 'vite';
import { TOKEN_STORAGE_KEY } from '../src/domain/auth-token.ts';
import { bootScriptSource } from '../src/features/auth/prerendered-login.ts';
import { DASHBOARD_MODULES_META } from '../src/workers/dashboard-modules.ts';

type PrerenderModule = typeof import('../src/app/prerender.tsx');

const EMPTY_ROOT = '<div id="root"></div>';

/** Stylesheets say nothing about the markup: in the prerender they are empty modules. */
const NO_STYLESHEET = '\0prerender-login:no-stylesheet';
const withoutStylesheets: Plugin = {
  name: 'prerender-login:without-stylesheets',
  enforce: 'pre',
  resolveId(source) {
    return /\.css($|\?)/.test(source) ? NO_STYLESHEET : null;
  },
  load(id) {
    return id === NO_STYLESHEET ? 'export {};' : null;
  },
};

/** The URL of the chunk that starts the dashboard's worker and calls (src/workers/dashboard-worker.ts). */
function dashboardChunk(bundle: Rolldown.OutputBundle | undefined, base: string): string {
  const chunk = Object.values(bundle ?? {}).find(
    (output): output is Rolldown.OutputChunk =>
      output.type === 'chunk' && output.moduleIds.some((id) => id.endsWith('/src/workers/dashboard-worker.ts')),
  );
  if (!chunk) throw new Error('prerender-login: no chunk holds src/workers/dashboard-worker.ts');
  // Loaded before the app's entry, it must not wait for it: it imports nothing but the runtime helpers.
  const waits = chunk.imports.filter((name) => !/rolldown-runtime/.test(name));
  if (waits.length > 0) throw new Error(`prerender-login: the dashboard's start chunk imports ${waits.join(', ')}`);
  return `${base}${chunk.fileName}`;
}

/** The URL of the dashboard's worker script (src/workers/dashboard.worker.ts): the boot script starts it, the app takes it over. */
function workerScript(bundle: Rolldown.OutputBundle | undefined, base: string): string {
  const scripts = Object.values(bundle ?? {}).filter((output) => /(^|\/)dashboard\.worker-[^/]*\.js$/.test(output.fileName));
  if (scripts.length !== 1) throw new Error(`prerender-login: the bundle has ${scripts.length} dashboard worker scripts, not one`);
  return `${base}${scripts[0]!.fileName}`;
}

/**
 * The page's stylesheet written into it: a <style> with its text, and the <link> disabled, which
 * the browser does not fetch but Vite's loader of lazy chunks finds (a lazy chunk that lists the
 * stylesheet among its dependencies would add it to the page again, after the chunks' own).
 * The server's Content-Security-Policy allows exactly that text by its hash.
 */
function inlineStylesheet(html: string, bundle: Rolldown.OutputBundle | undefined, base: string): string {
  const tags = [...html.matchAll(/<link rel="stylesheet" crossorigin href="([^"]+)">/g)];
  if (tags.length !== 1) throw new Error(`prerender-login: index.html has ${tags.length} stylesheets, not one`);
  const [tag, href = ''] = tags[0]!;
  const asset = Object.values(bundle ?? {}).find((output) => `${base}${output.fileName}` === href);
  if (asset?.type !== 'asset') throw new Error(`prerender-login: the bundle has no stylesheet ${href}`);
  const css = typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
  if (/<\/style/i.test(css)) throw new Error('prerender-login: the stylesheet cannot go into a <style> element');
  return html.replace(tag, () => `<style>${css.trim()}</style>\n    <link rel="stylesheet" href="${href}" disabled>`);
}

/** The modules of the dashboard's lazily loaded page and chart, and of the signed-in pages' tab bar. */
const DASHBOARD_MODULES = [
  '/src/features/dashboard/dashboard-page.tsx',
  '/src/features/dashboard/daily-chart.tsx',
  '/src/app/layout/tab-bar.tsx',
];

/**
 * The URLs of the chunks the dashboard's page, chart and tab bar are made of, with every chunk they
 * import, less what is asked for anyway (the entry and its imports, which the inline script
 * preloads, and the dashboard's start itself), then the stylesheets those chunks bring: for a
 * returning user the dashboard's start (src/workers/dashboard-worker.ts) asks for them while the
 * app's entry runs. Otherwise the page's stylesheet would be asked for only when the app opens the
 * page, which waits for it, and the tab bar's code once the page shows.
 */
function dashboardModules(bundle: Rolldown.OutputBundle | undefined, base: string): string[] {
  const chunks = Object.values(bundle ?? {}).filter((output): output is Rolldown.OutputChunk => output.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const preloaded = new Set([
    ...chunks.filter((chunk) => chunk.isEntry).flatMap((chunk) => [chunk.fileName, ...chunk.imports]),
    dashboardChunk(bundle, ''),
  ]);
  const listed = new Set<string>();
  const visit = (chunk: Rolldown.OutputChunk) => {
    if (preloaded.has(chunk.fileName) || listed.has(chunk.fileName)) return;
    listed.add(chunk.fileName);
    for (const name of chunk.imports) visit(byFile.get(name)!);
  };
  for (const id of DASHBOARD_MODULES) {
    const chunk = chunks.find((candidate) => candidate.moduleIds.some((moduleId) => moduleId.endsWith(id)));
    if (!chunk) throw new Error(`prerender-login: no chunk holds ${id}`);
    visit(chunk);
  }
  const stylesheets = [...listed].flatMap((fileName) => [...(byFile.get(fileName)!.viteMetadata?.importedCss ?? [])]);
  return [...listed, ...new Set(stylesheets)].map((fileName) => `${base}${fileName}`);
}

export function prerenderLogin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'prerender-login',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, context) {
        if (!html.includes(EMPTY_ROOT)) throw new Error(`prerender-login: index.html has no ${EMPTY_ROOT} to fill`);
        if (!html.includes('</title>')) throw new Error('prerender-login: index.html has no <title> to put the inline script after');
        // The app's modules run in Node the way Vite would serve them, with the build's settings.
        const { module } = await runnerImport<PrerenderModule>(path.join(config.root, 'src/app/prerender.tsx'), {
          configFile: false,
          root: config.root,
          mode: config.mode,
          envDir: config.envDir,
          envPrefix: config.envPrefix,
          define: config.define,
          logLevel: 'error',
          plugins: [withoutStylesheets],
        });
        const markup = module.renderSignedOutPage('/login');
        if (!markup.includes('<form')) throw new Error('prerender-login: the /login page rendered no form');
        // The inline script fetches and starts the entry (after the first paint of the form).
        const entryTag = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
        if (!entryTag) throw new Error('prerender-login: index.html has no entry <script type="module">');
        const script = minifySync(
          'boot.js',
          bootScriptSource(TOKEN_STORAGE_KEY, {
            entry: entryTag[1]!,
            dashboard: dashboardChunk(context.bundle, config.base),
            worker: workerScript(context.bundle, config.base),
          }),
        ).code.trim();
        // Replaced by functions: a replacement string would read `$'`, `$&`… in the script or markup as patterns.
        return inlineStylesheet(html, context.bundle, config.base)
          .replace(entryTag[0], '')
          .replace(
            '</title>',
            () =>
              `</title>\n    <meta name="${DASHBOARD_MODULES_META}" content="${dashboardModules(context.bundle, config.base).join(' ')}">` +
              `\n    <script>${script}</script>`,
          )
          .replace(EMPTY_ROOT, () => `<div id="root">${markup}</div>`);
      },
    },
  };
}

// What a screen shows, as words that the steps print and the drivers check: the jsdom suites
// (checkScreenWords) and the browser runner (scripts/paths-browser.ts) look for exactly these
// headings, lines and buttons.
import { listed, type Quote, type Words } from './steps.ts';

export interface ScreenWords {
  /** The page's h1, exactly. */
  heading?: Quote;
  /** A name the h1 goes on with after the quote ('Join' and the affiliate's name): how the steps say it, and the name the model's data gives. */
  headingThen?: { said: string; value: string | null };
  /** What names the screen when it has no heading of its own (the portal once signed in). */
  name?: Words;
  /** A status line (role="status"): a spinner's text. */
  status?: Quote;
  /** Texts that show on the screen. */
  texts?: readonly Quote[];
  /** Buttons that show enabled, and disabled (a pending label, or a control not yet usable). */
  enabled?: readonly Quote[];
  disabled?: readonly Quote[];
  /** Buttons that show busy (aria-busy) and disabled. */
  busy?: readonly Quote[];
  /** Status lines that must not show (the screen's pending line, while it is not pending). */
  noStatus?: readonly Quote[];
  /** Buttons that must not show. */
  noButtons?: readonly Quote[];
  /** An image, by its accessible name, and how the steps call it. */
  image?: { name: string; said: string };
  /** Alerts the screen shows besides the error line. */
  alerts?: readonly Quote[];
  /** Why the error line stays empty here although the machine holds an error. */
  hidesError?: string;
}

const list = <T>(...lists: (readonly T[] | undefined)[]): T[] => lists.flatMap((items) => items ?? []);

/** Several screens at once (the regions of a parallel state): one heading, every line and button. */
export function mergeScreens(screens: readonly ScreenWords[]): ScreenWords {
  const merged: ScreenWords = {
    heading: screens.find((screen) => screen.heading)?.heading,
    headingThen: screens.find((screen) => screen.heading)?.headingThen,
    name: screens.find((screen) => screen.name)?.name,
    status: screens.find((screen) => screen.status)?.status,
    texts: list(...screens.map((screen) => screen.texts)),
    enabled: list(...screens.map((screen) => screen.enabled)),
    disabled: list(...screens.map((screen) => screen.disabled)),
    busy: list(...screens.map((screen) => screen.busy)),
    noStatus: list(...screens.map((screen) => screen.noStatus)),
    noButtons: list(...screens.map((screen) => screen.noButtons)),
    image: screens.find((screen) => screen.image)?.image,
    alerts: list(...screens.map((screen) => screen.alerts)),
    hidesError: screens.find((screen) => screen.hidesError)?.hidesError,
  };
  const statuses = screens.filter((screen) => screen.status).map((screen) => screen.status!.text);
  if (new Set(statuses).size > 1) throw new Error(`Two status lines at once: ${statuses.join(', ')}`);
  return merged;
}

/** The screen's name in the steps: its heading, else its name, else its status line. */
export function screenName(screen: ScreenWords): Words {
  if (screen.heading && screen.headingThen) return [screen.heading, ` (with ${screen.headingThen.said})`];
  return screen.heading ?? screen.name ?? screen.status ?? 'the page';
}

/** The h1 the screen's words call for, in full where the name is known. */
export function headingText(screen: ScreenWords): string | null {
  if (!screen.heading) return null;
  return screen.headingThen?.value ? `${screen.heading.text} ${screen.headingThen.value}` : screen.heading.text;
}

/** What the steps say shows: "'Enter 2FA Code' shows, with 'Verifying...'", the alerts last. */
export function screenSays(screen: ScreenWords, alerts: readonly Quote[]): Words {
  const main = screenName(screen);
  const withs: Words[] = [
    ...(screen.status && main !== screen.status ? [screen.status] : []),
    ...(screen.image ? [screen.image.said] : []),
    ...list(screen.texts),
    ...list(screen.disabled).filter((label) => label.text.endsWith('...')),
    ...list(screen.busy).map((label): Words => [label, ' busy']),
    ...alerts,
  ];
  return withs.length === 0 ? [main, ' shows'] : [main, ' shows, with ', listed(withs)];
}

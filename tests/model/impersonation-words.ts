// Viewing the portal as an affiliate, in words (see steps.ts): what each state of the
// impersonation machine shows and what a superuser does for each event. The model's affiliates are
// named by their place in the family (a parent affiliate and one of its children), which each
// driver finds in its own data. The model-based suite (impersonation-driver.tsx),
// `npm run paths -- --steps` and the browser runner read them from here.
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { ImpersonationEvent } from '../../machines/impersonation.ts';
import { dashboardTexts } from './dashboard-words.ts';
import { IMPERSONATED_AFFILIATES } from './impersonation-paths.ts';
import { described, NoWordsError, q, w, type MachineWords, type Words } from './steps.ts';

/** The spec's words for what the superuser's tools are for. */
const VIEW_AS = 'superusers who may view the portal as any affiliate';

export const impersonationControls = {
  viewAs: q('View as Affiliate'),
  ownView: q('Own view (all affiliates)'),
  /** The button of the 'Viewing as' line, followed by the affiliate's name. */
  stop: described('Stop viewing as', VIEW_AS),
} as const;

export const impersonationTexts = {
  /** The header's line while viewing as an affiliate, followed by its name. */
  viewingAs: described('Viewing as', VIEW_AS),
} as const;

export type ImpersonatedAffiliate = (typeof IMPERSONATED_AFFILIATES)[number];

/** The model's affiliates by their place in the family, as the steps name them. */
export const affiliateRoles: Record<ImpersonatedAffiliate, string> = {
  P1: 'the parent affiliate',
  C1: 'the child affiliate',
};

const roleOf = (affiliateId: string): string => {
  const role = affiliateRoles[affiliateId as ImpersonatedAffiliate] as string | undefined;
  if (!role) throw new NoWordsError(`no words for the affiliate ${affiliateId} (tests/model/impersonation-words.ts)`);
  return role;
};

const c = impersonationControls;
const t = impersonationTexts;

function sees(state: AnyMachineSnapshot): Words {
  const affiliateId = (state.context as { affiliateId: string | null }).affiliateId;
  if (affiliateId === null)
    return w`${c.ownView} in ${c.viewAs}, no ${t.viewingAs} line, the page's ${dashboardTexts.heading} in the superuser's own view`;
  const role = roleOf(affiliateId);
  return w`${t.viewingAs} ${role}'s name, with ${c.stop} ${role}'s name; /, with ${role}'s name before ${dashboardTexts.heading}`;
}

/** What the superuser does for each event: the own view by the selector's option (or the Stop button). */
function does(event: EventObject, from: AnyMachineSnapshot): Words {
  const impersonationEvent = event as ImpersonationEvent;
  // How the page opens: in a tab that viewed as an affiliate before (a reload keeps the choice), or afresh.
  if (impersonationEvent.type === 'IMPERSONATION.RESTORED')
    return impersonationEvent.affiliateId === ''
      ? "open /affiliate/{affiliateId} of an affiliate outside the parent affiliate's family (the superuser's own view)"
      : `reload the tab, which viewed as ${roleOf(impersonationEvent.affiliateId)} before`;
  if (impersonationEvent.type !== 'IMPERSONATION.SELECT') throw new NoWordsError(`no words for the event ${event.type}`);
  if (impersonationEvent.affiliateId !== '') return w`choose ${roleOf(impersonationEvent.affiliateId)} in ${c.viewAs}`;
  const current = (from.context as { affiliateId: string | null }).affiliateId;
  const stop: Words = current === null ? '' : w` (or press ${c.stop} ${roleOf(current)}'s name)`;
  return [w`choose ${c.ownView} in ${c.viewAs}`, stop];
}

export const impersonationWords: MachineWords = {
  isOutcome: () => false,
  opening: () => 'sign in as a superuser',
  screen: () => dashboardTexts.heading,
  sees,
  does,
};

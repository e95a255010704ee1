// The impersonation machine's model (machines/impersonation.ts): the tab's choice comes back as
// the machine starts (a reload of a tab that viewed as P1, or nothing kept: the own view), then a
// superuser chooses an affiliate to view the portal as, or chooses the own view (an empty id).
// Signing out ends the machine (it is a child of the signed-in state): the driver ends every path
// with Logout. `npm run paths` prints the paths generated from the real machine; the
// model-based suite (impersonation-ui.test.tsx) runs them against the header's View as Affiliate.
import { impersonationMachine, type ImpersonationEvent } from '../../machines/impersonation.ts';
import { generatePaths, noted, type MachineModel, type ModelPaths } from './paths.ts';

/** Affiliates of the fixtures (tests/utils/api-server.ts addFixtures): a parent and its child. */
export const IMPERSONATED_AFFILIATES = ['P1', 'C1'] as const;

export function impersonationEvents(): ImpersonationEvent[] {
  return [
    noted({ type: 'IMPERSONATION.RESTORED', affiliateId: 'P1' }, 'affiliateId "P1" (the tab viewed as P1 before a reload)'),
    noted({ type: 'IMPERSONATION.RESTORED', affiliateId: '' }, 'affiliateId "" (nothing kept: the own view)'),
    ...IMPERSONATED_AFFILIATES.map((affiliateId): ImpersonationEvent => ({ type: 'IMPERSONATION.SELECT', affiliateId })),
    noted({ type: 'IMPERSONATION.SELECT', affiliateId: '' }, 'affiliateId "" (the own view)'),
  ];
}

export function impersonationModel(): MachineModel {
  // Every simple path too: they go from one affiliate straight to the other, from either start.
  return {
    id: impersonationMachine.id,
    machine: impersonationMachine,
    input: undefined,
    events: impersonationEvents(),
    simplePathLimit: 12,
  };
}

export const impersonationPaths = (): ModelPaths => generatePaths(impersonationModel());

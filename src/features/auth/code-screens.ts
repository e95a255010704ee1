// The two code screens (TOTP and e-mailed code) come after Login: their code loads when Login is
// pressed, alongside the sign-in request, so what /login downloads before them stays small.
import { lazyModule } from '../../components/lazy-module.ts';

export const codeScreens = lazyModule(() => import('./code-screens-module.ts'));

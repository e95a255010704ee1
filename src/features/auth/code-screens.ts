// The screens that come after Login: the code screens (TOTP and e-mailed code) and the 2FA setup
// screens. Their code loads when Login is pressed, alongside the sign-in request, so what /login
// downloads before them stays small. One module: the parts they share would otherwise be chunks of
// their own, each a name in /login's list of what to preload.
import { lazyModule } from '../../components/lazy-module.ts';

export const codeScreens = lazyModule(() => import('./code-screens-module.ts'));

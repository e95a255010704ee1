// Sign-in: POST token/ (password), token/refresh/, token/send-email/ (login code), token/verify/
// (TOTP or e-mailed code, completing two-factor authentication).
import { Hono } from 'hono';
import * as z from 'zod';
import { requireAuth } from '../auth.ts';
import { checkTotp, redeemEmailCode, sendEmailCode } from '../codes.ts';
import type { AppEnv, ServerContext } from '../context.ts';
import { detail, fieldErrors, readBody, requiredString } from '../http.ts';
import { verifyPassword } from '../passwords.ts';
import { findUserById, findUserByLogin } from '../users.ts';

const loginBody = z.object({ username: requiredString, password: z.string().min(1) });
const refreshBody = z.object({ refresh: requiredString });
const codeBody = z.object({ token: requiredString });

export function tokenRoutes(ctx: ServerContext) {
  const app = new Hono<AppEnv>();
  const partial = requireAuth(ctx, { verified: false });

  app.post('/token/', async (c) => {
    const { username, password } = await readBody(c, loginBody);
    const user = findUserByLogin(ctx.db, username);
    // Per account when there is one, so its username and e-mail address share the limit.
    const key = user ? `login:user:${user.id}` : `login:${username.toLowerCase()}`;
    ctx.throttle.check(key);
    if (!user || !verifyPassword(password, user.password_hash)) {
      ctx.throttle.fail(key);
      throw detail(401, 'No active account found with the given credentials');
    }
    ctx.throttle.clear(key);
    return c.json(await ctx.tokens.issue(user, false));
  });

  app.post('/token/refresh/', async (c) => {
    const { refresh } = await readBody(c, refreshBody);
    const { userId, verified } = await ctx.tokens.redeemRefresh(refresh);
    const user = findUserById(ctx.db, userId);
    if (!user) throw detail(401, 'User not found');
    return c.json(await ctx.tokens.issue(user, verified));
  });

  app.post('/token/send-email/', partial, (c) => {
    const user = c.get('user');
    if (user.twofa_method === 'email') {
      sendEmailCode(ctx, user, 'login', null);
      return c.json({ detail: 'Verification code sent.' });
    }
    // During e-mail setup (no method yet), Resend sends a new code for the pending device.
    const pending = user.twofa_method
      ? undefined
      : ctx.db
          .prepare<[number], { id: string }>(
            "SELECT id FROM devices WHERE user_id = ? AND kind = 'email' AND confirmed_at IS NULL ORDER BY created_at DESC, rowid DESC LIMIT 1",
          )
          .get(user.id);
    if (!pending) throw fieldErrors({ non_field_errors: ['E-mail two-factor authentication is not configured for this account.'] });
    sendEmailCode(ctx, user, 'setup', pending.id);
    return c.json({ detail: 'Verification code sent.' });
  });

  app.post('/token/verify/', partial, async (c) => {
    const { token } = await readBody(c, codeBody);
    const user = c.get('user');
    const key = `code:${user.id}`;
    ctx.throttle.check(key);
    let accepted = false;
    if (user.twofa_method === 'totp' && user.totp_secret) {
      const step = await checkTotp(ctx, user.totp_secret, token, user.totp_last_step);
      if (step !== null) {
        ctx.db.prepare('UPDATE users SET totp_last_step = ? WHERE id = ?').run(step, user.id);
        accepted = true;
      }
    } else if (user.twofa_method === 'email') {
      accepted = redeemEmailCode(ctx, user, 'login', token, null);
    } else {
      throw fieldErrors({ non_field_errors: ['Two-factor authentication is not configured for this account.'] });
    }
    if (!accepted) {
      ctx.throttle.fail(key);
      throw fieldErrors({ token: ['Invalid or expired code.'] });
    }
    ctx.throttle.clear(key);
    return c.json(await ctx.tokens.issue(findUserById(ctx.db, user.id) ?? user, true));
  });

  return app;
}

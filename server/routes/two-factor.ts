// Two-factor setup for an account that has none yet (or a verified session changing it):
// authenticator app (2fa/totp/setup/, 2fa/totp/confirm/) and e-mailed codes
// (2fa/email/setup/, 2fa/email/confirm_setup/). Confirming returns a verified token pair.
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import type { Context } from 'hono';
import * as z from 'zod';
import { requireAuth } from '../auth.ts';
import { checkSendLimit, checkTotp, newTotpSecret, redeemEmailCode, sendEmailCode, totpUri } from '../codes.ts';
import type { AppEnv, ServerContext } from '../context.ts';
import { detail, fieldErrors, messages, readBody, requiredString } from '../http.ts';
import { findUserById } from '../users.ts';

const confirmBody = z.object({ token: requiredString, device_id: requiredString });

interface DeviceRow {
  id: string;
  user_id: number;
  kind: 'totp' | 'email';
  secret: string | null;
  confirmed_at: number | null;
}

export function twoFactorRoutes(ctx: ServerContext) {
  const app = new Hono<AppEnv>();
  app.use('/2fa/*', requireAuth(ctx, { verified: false }));

  /** Setting up is for accounts without 2FA, or for a session that has already passed it. */
  function assertMaySetUp(c: Context<AppEnv>) {
    if (c.get('user').twofa_method && !c.get('claims').is_2fa_verified) throw detail(403, messages.permissionDenied);
  }

  function pendingDevice(c: Context<AppEnv>, deviceId: string, kind: DeviceRow['kind']): DeviceRow {
    const device = ctx.db
      .prepare<[string, number, string], DeviceRow>('SELECT * FROM devices WHERE id = ? AND user_id = ? AND kind = ?')
      .get(deviceId, c.get('user').id, kind);
    if (!device || device.confirmed_at !== null) throw fieldErrors({ device_id: ['Invalid device.'] });
    return device;
  }

  async function confirm(c: Context<AppEnv>, device: DeviceRow, step: number | null) {
    const user = c.get('user');
    ctx.db.transaction(() => {
      ctx.db.prepare('UPDATE devices SET confirmed_at = ? WHERE id = ?').run(ctx.now(), device.id);
      ctx.db
        .prepare('UPDATE users SET twofa_method = ?, totp_secret = ?, totp_last_step = ? WHERE id = ?')
        .run(device.kind, device.kind === 'totp' ? device.secret : null, step ?? 0, user.id);
    })();
    ctx.throttle.clear(`code:${user.id}`);
    const updated = findUserById(ctx.db, user.id) ?? user;
    return c.json(await ctx.tokens.issue(updated, true));
  }

  app.post('/2fa/totp/setup/', (c) => {
    assertMaySetUp(c);
    const user = c.get('user');
    const id = randomUUID();
    const secret = newTotpSecret();
    ctx.db
      .prepare("INSERT INTO devices (id, user_id, kind, secret, created_at) VALUES (?, ?, 'totp', ?, ?)")
      .run(id, user.id, secret, ctx.now());
    return c.json({ device_id: id, qr_url: totpUri(secret, user.username) });
  });

  app.post('/2fa/totp/confirm/', async (c) => {
    assertMaySetUp(c);
    const { token, device_id } = await readBody(c, confirmBody);
    const key = `code:${c.get('user').id}`;
    ctx.throttle.check(key);
    const device = pendingDevice(c, device_id, 'totp');
    // Counted before checking: concurrent guesses cannot outrun the limit.
    ctx.throttle.record(key);
    const step = device.secret ? await checkTotp(ctx, device.secret, token, 0) : null;
    if (step === null) throw fieldErrors({ token: ['Invalid or expired code.'] });
    return confirm(c, device, step);
  });

  app.post('/2fa/email/setup/', (c) => {
    assertMaySetUp(c);
    const user = c.get('user');
    checkSendLimit(ctx, user);
    const id = randomUUID();
    ctx.db.prepare("INSERT INTO devices (id, user_id, kind, created_at) VALUES (?, ?, 'email', ?)").run(id, user.id, ctx.now());
    sendEmailCode(ctx, user, 'setup', id);
    return c.json({ device_id: id, email: user.email });
  });

  app.post('/2fa/email/confirm_setup/', async (c) => {
    assertMaySetUp(c);
    const { token, device_id } = await readBody(c, confirmBody);
    const key = `code:${c.get('user').id}`;
    ctx.throttle.check(key);
    const device = pendingDevice(c, device_id, 'email');
    if (!redeemEmailCode(ctx, c.get('user'), 'setup', token, device.id)) {
      ctx.throttle.record(key);
      throw fieldErrors({ token: ['Invalid or expired code.'] });
    }
    return confirm(c, device, null);
  });

  return app;
}

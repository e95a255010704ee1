// A fixture user already signed in: a test server whose clock starts at the test's time
// (Date.now(), which the dashboard tests fake: dashboard-day.ts), the fixtures, and the user's
// verified token pair stored in the test window's localStorage the way the portal stores it, so
// that a session rendered next (renderWithSession) starts in the app.
import { TOKEN_STORAGE_KEY } from '../../src/domain/auth-token.ts';
import {
  addFixtures,
  createTestServer,
  signIn,
  type FixtureUser,
  type FixtureUserName,
  type Fixtures,
  type TestServer,
} from './api-server.ts';

export interface SignedInFixture {
  server: TestServer;
  fixtures: Fixtures;
  user: FixtureUser;
}

export async function signInFixtureUser(name: FixtureUserName, storage: Storage = window.localStorage): Promise<SignedInFixture> {
  const server = createTestServer({ now: Date.now() });
  const fixtures = addFixtures(server.db, { now: server.clock.now() });
  const user = fixtures.users[name];
  // 'fresh' has no second factor yet: it is set up with e-mailed codes on the way in.
  const pair = await signIn(server, user.username, user.password, user.method ?? 'email');
  storage.setItem(TOKEN_STORAGE_KEY, JSON.stringify({ username: user.username, ...pair }));
  return { server, fixtures, user };
}

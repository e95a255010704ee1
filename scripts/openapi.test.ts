// docs/openapi.json must describe the API as the portal calls it: regenerate it in memory and
// compare, then check what a provider's back end relies on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPENAPI_PATH, openApiDocument, openApiText } from './openapi-document.ts';

const root = join(import.meta.dirname, '..');

interface Schema {
  $ref?: string;
  type?: string | string[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  pattern?: string;
  format?: string;
}
interface Operation {
  security?: unknown[];
  parameters?: { $ref?: string; name?: string; in?: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: Schema }> }>;
}

const document = openApiDocument();
const paths = document.paths as Record<string, Record<string, Operation>>;
const schemas = document.components.schemas as Record<string, Schema>;

/** A schema with its reference followed. */
const resolved = (schema: Schema): Schema => (schema.$ref ? resolved(schemas[schema.$ref.replace('#/components/schemas/', '')]!) : schema);

/** The JSON types a schema allows, references and alternatives followed. */
function typesOf(schema: Schema): string[] {
  const target = resolved(schema);
  if (target.anyOf) return target.anyOf.flatMap(typesOf);
  return [target.type ?? []].flat();
}

/** The schema of a property, by its path through objects and arrays' items. */
function propertyOf(schemaName: string, ...path: string[]): Schema {
  let schema: Schema = schemas[schemaName]!;
  for (const key of path) {
    const target = resolved(schema);
    const object = target.anyOf?.map(resolved).find((alternative) => alternative.properties) ?? target;
    schema = object.properties![key]!;
  }
  return schema;
}

// Every call the portal makes, the sign-out's revocation included.
const calls = [
  ['post', '/token/'],
  ['post', '/token/refresh/'],
  ['post', '/token/blacklist/'],
  ['post', '/2fa/totp/setup/'],
  ['post', '/2fa/totp/confirm/'],
  ['post', '/2fa/email/setup/'],
  ['post', '/2fa/email/confirm_setup/'],
  ['post', '/token/send-email/'],
  ['post', '/token/verify/'],
  ['get', '/affiliates/'],
  ['get', '/payment_events/'],
  ['get', '/connection_fees/'],
  ['get', '/reports/affiliate/'],
  ['get', '/reports/affiliate/{id}/download/'],
  ['get', '/affiliates/invites/{inviteId}/'],
  ['post', '/affiliates/invites/register/'],
] as const;
const publicCalls = ['/token/', '/token/refresh/', '/token/blacklist/', '/affiliates/invites/{inviteId}/', '/affiliates/invites/register/'];

describe('docs/openapi.json', () => {
  it('is up to date (npm run openapi)', async () => {
    const written = readFileSync(join(root, OPENAPI_PATH), 'utf8');
    expect(written, `${OPENAPI_PATH} is out of date: run npm run openapi`).toBe(await openApiText(root));
  });

  it('is OpenAPI 3.1 with the v2 base as its server', () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.servers).toEqual([expect.objectContaining({ url: '/api/v2' })]);
  });
});

describe('the calls', () => {
  it('are those the portal makes, each with its method, and no other', () => {
    const described = Object.entries(paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => [method, path]));
    expect(described.sort()).toEqual(calls.map(([method, path]) => [method, path]).sort());
  });

  it.each(calls)('%s %s: a bearer token unless public, and impersonate_affiliate with one', (method, path) => {
    const operation = paths[path]![method]!;
    const impersonation = (operation.parameters ?? []).some(
      (parameter) => parameter.$ref === '#/components/parameters/ImpersonateAffiliate',
    );
    if (publicCalls.includes(path)) {
      expect(operation.security).toEqual([]);
      expect(impersonation).toBe(false);
    } else {
      expect(operation.security).toBeUndefined();
      expect(document.security).toEqual([{ bearerAuth: [] }]);
      expect(impersonation).toBe(true);
      expect(operation.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
    }
  });

  it('take a bearer JWT, and impersonate_affiliate as an optional query parameter', () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(document.components.parameters.ImpersonateAffiliate).toMatchObject({
      name: 'impersonate_affiliate',
      in: 'query',
      required: false,
    });
  });

  it('ask the payment events and connection fees of a range: start required, end optional', () => {
    for (const path of ['/payment_events/', '/connection_fees/']) {
      const parameters = paths[path]!.get!.parameters!.filter((parameter) => parameter.in === 'query');
      expect(parameters.map(({ name, required, schema }) => [name, required, resolved(schema!)])).toEqual([
        ['start', true, expect.objectContaining({ type: 'string', format: 'date-time' })],
        ['end', false, expect.objectContaining({ type: 'string', format: 'date-time' })],
      ]);
    }
  });

  it('send the bodies the portal sends', () => {
    const body = (method: 'post', path: string) =>
      Object.keys(resolved(paths[path]![method]!.requestBody!.content['application/json']!.schema).properties!);
    expect(body('post', '/token/')).toEqual(['username', 'password']);
    expect(body('post', '/token/refresh/')).toEqual(['refresh']);
    expect(body('post', '/2fa/totp/confirm/')).toEqual(['token', 'device_id']);
    expect(body('post', '/2fa/email/confirm_setup/')).toEqual(['token', 'device_id']);
    expect(body('post', '/token/verify/')).toEqual(['token']);
    expect(body('post', '/affiliates/invites/register/')).toEqual(['email', 'password', 'invite_id']);
    expect(paths['/2fa/totp/setup/']!.post!.requestBody).toBeUndefined();
    expect(paths['/token/send-email/']!.post!.requestBody).toBeUndefined();
  });

  it('download a report as an Excel workbook', () => {
    const download = paths['/reports/affiliate/{id}/download/']!.get!;
    expect(Object.keys(download.responses['200']!.content!)).toEqual(['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
    expect(download.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
  });

  it('leave the health check out', () => {
    expect(Object.keys(paths)).not.toContain('/healthz');
  });
});

describe('the answers', () => {
  it('name affiliates by affiliate_ID, with a name and a parent that may be null', () => {
    expect(schemas.Affiliate!.required).toEqual(expect.arrayContaining(['affiliate_ID', 'name', 'parent']));
    expect(typesOf(propertyOf('Affiliate', 'affiliate_ID'))).toEqual(['string']);
    expect(typesOf(propertyOf('Affiliate', 'parent'))).toEqual(['string', 'number', 'null']);
    expect(paths['/affiliates/']!.get!.responses['200']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/AffiliateList',
    });
    expect(resolved(schemas.AffiliateList!)).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/Affiliate' } });
  });

  it.each([
    ['PaymentEvent', 'amount'],
    ['PaymentEvent', 'order', 'affiliate_commission_pc'],
    ['ConnectionFee', 'amount'],
    ['ConnectionFee', 'connection_fee_pc'],
    ['ConnectionFee', 'connection_fee_amount'],
    ['AffiliateReport', 'premium_collected'],
    ['AffiliateReport', 'commission'],
    ['AffiliateReport', 'connection_fees'],
  ])('carry money as decimal strings: %s %s', (schema, ...path) => {
    const property = propertyOf(schema, ...path);
    expect(property.anyOf ?? [property]).toContainEqual({ $ref: '#/components/schemas/Decimal' });
    expect(typesOf(property)).not.toContain('number');
  });

  it('write a decimal string with a point, never as a number', () => {
    const decimal = schemas.Decimal!;
    expect(decimal.type).toBe('string');
    const pattern = new RegExp(decimal.pattern!);
    expect(['12', '12.5', '-3.000001'].filter((text) => pattern.test(text))).toHaveLength(3);
    expect(['12,5', '1e3', '.5', ''].filter((text) => pattern.test(text))).toEqual([]);
  });

  it('send dates as ISO 8601 strings', () => {
    expect(resolved(propertyOf('PaymentEvent', 'created'))).toMatchObject({ type: 'string', format: 'date-time' });
    expect(resolved(propertyOf('AffiliateReport', 'report_date'))).toMatchObject({ type: 'string', format: 'date' });
  });

  it('answer errors as Django REST Framework does: detail, or field errors for a 400', () => {
    const responses = document.components.responses;
    for (const name of ['Unauthorized', 'Forbidden', 'NotFound', 'Throttled'] as const) {
      expect(responses[name].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorDetail' });
    }
    expect(schemas.ErrorDetail!.required).toEqual(['detail']);
    expect(responses.FieldErrors.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/FieldErrors' });
    expect(schemas.FieldErrors).toMatchObject({ type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array' }] } });
  });
});

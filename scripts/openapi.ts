// npm run openapi: writes docs/openapi.json, the v2 API as the portal calls it (scripts/openapi-document.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPENAPI_PATH, openApiText } from './openapi-document.ts';

const root = join(import.meta.dirname, '..');
writeFileSync(join(root, OPENAPI_PATH), await openApiText(root));
console.log(`wrote ${OPENAPI_PATH}`);

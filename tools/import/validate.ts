/**
 * Checks a container against `@adobe/reactor-turbine-schemas`' container schema (draft-04,
 * compiled with ajv: the keywords it uses mean the same in ajv's default draft). Functions are
 * checked as what the schema allows in their place (any value).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ErrorObject } from 'ajv';
import { isCode, type LaunchContainer } from './read.ts';

let validate: ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

function compile() {
  const require = createRequire(import.meta.url);
  const schema = JSON.parse(readFileSync(require.resolve('@adobe/reactor-turbine-schemas/schemas/container.json'), 'utf8')) as Record<string, unknown>;
  delete schema.$schema;
  return new Ajv({ allErrors: true, strict: false, validateFormats: false }).compile(schema);
}

const withoutCode = (v: unknown): unknown =>
  isCode(v) ? 'function' : Array.isArray(v) ? v.map(withoutCode) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withoutCode(x)])) : v;

/** One line per schema violation (`/rules/0/id must match pattern …`); none when valid. */
export function schemaProblems(container: LaunchContainer): string[] {
  validate ??= compile();
  if (validate(withoutCode(container))) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
}

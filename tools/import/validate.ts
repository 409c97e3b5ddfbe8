/**
 * What the import checks before it translates. Adobe's container schema
 * (`@adobe/reactor-turbine-schemas`, draft-04, compiled with ajv) describes one turbine generation;
 * deployed libraries of other generations add fields (`buildInfo.minified`, `buildInfo.environment`)
 * or lack some (`company.dynamicCdnEnabled`, `property.id`), and turbine runs them all. So the
 * schema's findings are warnings in the report, never a refusal; the import refuses a library only
 * when it has nothing to import (no data elements, rules or extensions), and a malformed item is
 * reported as not imported with its reason.
 */
import { Ajv, type ErrorObject } from 'ajv';
// Imported, not read at run time: the prebuilt CLI carries it (an installed package has no @adobe/reactor-turbine-schemas).
import containerSchema from '@adobe/reactor-turbine-schemas/schemas/container.json' with { type: 'json' };
import { isCode, type LaunchContainer } from './read.ts';

let validate: ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

function compile() {
  const schema = structuredClone(containerSchema) as Record<string, unknown>;
  delete schema.$schema;
  return new Ajv({ allErrors: true, strict: false, validateFormats: false }).compile(schema);
}

const withoutCode = (v: unknown): unknown =>
  isCode(v) ? 'function' : Array.isArray(v) ? v.map(withoutCode) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withoutCode(x)])) : v;

/** One line per schema finding (`/buildInfo must NOT have additional properties (minified)`); none when the container matches. */
export function schemaProblems(container: LaunchContainer): string[] {
  validate ??= compile();
  if (validate(withoutCode(container))) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The container in the shape the translation reads, and what was wrong with it: the schema's
 * findings and each repair (a rule without a name, a component without a module path), as warnings;
 * `error` only when there is nothing to import.
 */
export function checkContainer(c: LaunchContainer): { container: LaunchContainer; warnings: string[]; error?: string } {
  const warnings = schemaProblems(c).map((p) => `schema: ${p} (read anyway: turbine runs it)`);
  const out: LaunchContainer = { ...c };
  if (c.dataElements !== undefined && !isObject(c.dataElements)) {
    warnings.push('dataElements is not an object: no data element is read');
    delete out.dataElements;
  }
  if (c.extensions !== undefined && !isObject(c.extensions)) {
    warnings.push('extensions is not an object: no extension is read');
    delete out.extensions;
  }
  if (c.rules !== undefined && !Array.isArray(c.rules)) {
    warnings.push('rules is not a list: no rule is read');
    delete out.rules;
  }
  const component = <T extends { modulePath: string }>(x: unknown, where: string): T => {
    if (isObject(x) && typeof x.modulePath === 'string') return x as unknown as T;
    warnings.push(`${where} has no module path: it is not imported`);
    return { ...(isObject(x) ? x : {}), modulePath: '' } as unknown as T;
  };
  if (out.dataElements) out.dataElements = Object.fromEntries(Object.entries(out.dataElements).map(([k, d]) => [k, component(d, `data element ${JSON.stringify(k)}`)]));
  if (out.rules)
    out.rules = out.rules.map((r, i) => {
      const rule: Record<string, unknown> = isObject(r) ? r : {};
      const name = typeof rule.name === 'string' ? rule.name : `rule ${i + 1}`;
      if (typeof rule.name !== 'string') warnings.push(`rule ${i + 1} has no name: it is reported as "${name}"`);
      const list = (k: 'events' | 'conditions' | 'actions') => {
        const v = rule[k];
        if (v === undefined) return [];
        if (!Array.isArray(v)) {
          warnings.push(`rule ${JSON.stringify(name)}: its ${k} are not a list`);
          return [];
        }
        return v.map((x, j) => component(x, `rule ${JSON.stringify(name)}, ${k.slice(0, -1)} ${j + 1}`));
      };
      return { ...rule, id: typeof rule.id === 'string' ? rule.id : `RL${i + 1}`, name, events: list('events'), conditions: list('conditions'), actions: list('actions') } as NonNullable<LaunchContainer['rules']>[number];
    });
  const empty = !Object.keys(out.dataElements ?? {}).length && !(out.rules ?? []).length && !Object.keys(out.extensions ?? {}).length;
  return { container: out, warnings, ...(empty ? { error: 'the library has no data elements, rules or extensions to import' } : {}) };
}

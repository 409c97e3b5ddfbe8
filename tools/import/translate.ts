/**
 * From a Launch container to an Offtag container source and its report: each data element, rule
 * and rule component mapped to the Launch runtime's pieces (src/launch) when the worker can run it, or
 * listed with the reason it was not imported. Every data element and rule appears in the report
 * exactly once.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import vm from 'node:vm';
import * as acorn from 'acorn';
import { pageOnlyValue, place, workerFactory, type Placement } from './custom-code.ts';
import { installPageAnalytics } from '../../src/launch/appmeasurement/page-tracker.ts';
import { tagContainerMarker } from '../../src/worker-engine/analytics/beacon-url.ts';
import { isCode, type LaunchComponent, type LaunchContainer, type LaunchDataElement, type LaunchRule, type LaunchValue } from './read.ts';
import { storedKey } from '../../src/worker-engine/core/types.ts';
import { DOM_EVENTS, ECID_VARIABLES, VISITOR_ATTRIBUTES, VISITOR_COOKIE, VISITOR_SESSION_KEY, workerReadablePath, splitPath, BLOCK_READS, type ActionOptions, type ImportedFacts, type PageStepOptions, type VisitorAttribute } from '../../src/launch/index.ts';
import type { PageSide } from '../../src/worker-engine/core/page-reads.ts';
import { FUNCTION_MARK } from '../build/page-reads.ts';

export interface TranslateOptions {
  /** The container's name (the output folder's). */
  name: string;
  /**
   * The checkout's root, relative to the output file (`../..`): the runtime and `src/container` are
   * under it; `''` for an installed package, whose container imports `offtag/container` and `offtag/launch`.
   */
  root: string;
  /** Folder with the files the library loads from its host (`RC…-source.min.js`). */
  assets?: string;
  /** The page global the worker snapshots (default: the commonest root of the JavaScript variables). */
  dataLayer?: string;
  /** What reading the library found (schema findings, repairs): the report's first lines. */
  warnings?: string[];
}

export type Where = 'worker' | 'page' | 'not imported';

export interface ReportItem {
  kind: 'data element' | 'rule';
  name: string;
  where: Where;
  /** What runs where, and what was left out and why. */
  notes: string[];
  /** Components of an imported rule that were not imported. */
  dropped: number;
}

export interface Translation {
  source: string;
  items: ReportItem[];
  /** Extensions and settings that were not imported, with the reason: the report's "other items". */
  extras: string[];
  /** The extensions offtag.js's module host runs, and those with nothing to run (not counted as not imported). */
  extensions: string[];
  /** What behaves differently from turbine because of a property setting (not counted as not imported). */
  notices: string[];
  /** What reading the library found: schema findings and repairs (not counted as not imported). */
  warnings: string[];
  /** External code files `--assets` does not have: the page loads them from the library's host. */
  missingAssets: string[];
  dataLayer: string;
  sessionKeys: string[];
  /** Settings for `window.offtagConfig` taken from the extensions (report suites, tracking server, org id). */
  settings: Record<string, unknown>;
}

const q = (s: unknown) => JSON.stringify(s);
const CORE = 'core/src/lib/';
const ANALYTICS = 'adobe-analytics/src/lib/actions/';
const ECID = 'adobe-mcid/src/lib/actions/';
const DLM = 'data-layer-manager-search-discovery';
const DLM_PUSH = `${DLM}/src/lib/events/data_layer_push_event.js`;
const DLM_STATE = `${DLM}/src/lib/data_elements/context_aware_data_element.js`;
/** A Set Variables action whose custom code block could not be imported (its properties were). */
const SV_CODE_DROPPED = 'its custom code block not imported';
/** A worker block's note when it reads page globals as data (the rule is then partly on the page). */
const PAGE_GLOBAL_NOTE = 'reads the page global(s)';
const PLUGINS_EXT = 'common-analytics-plugins/src/lib/actions/';
/** What the worker's `s` has of itself (src/launch/appmeasurement/tracker.ts), whatever the library defines. */
const WORKER_S_METHODS = new Set(['t', 'tl', 'track', 'trackLink', 'clearVars', 'c_r', 'c_w', 'cookieRead', 'cookieWrite', 'escape', 'unescape', 'replace', 'setAccount', 'sa', 'loadModule', 'registerPreTrackCallback', 'registerPostTrackCallback', 'log']);
/** The Common Analytics Plugins extension's actions the import runs, and the plugins each hands the tracker (src/launch/appmeasurement/plugins.ts). */
const PLUGIN_ACTIONS: Record<string, Array<{ name: string; on: 'analytics' | 'window' }>> = {
  [PLUGINS_EXT + 'initializeApl.js']: [{ name: 'apl', on: 'analytics' }, { name: 'inList', on: 'analytics' }],
  [PLUGINS_EXT + 'initializeGetValOnce.js']: [{ name: 'getValOnce', on: 'analytics' }],
  [PLUGINS_EXT + 'initializeGetTimeParting.js']: [{ name: 'getTimeParting', on: 'window' }],
};

class Skip extends Error {}
const skip = (why: string): never => {
  throw new Skip(why);
};

type Settings = Record<string, LaunchValue>;
const str = (v: LaunchValue | undefined, what: string): string => (typeof v === 'string' ? v : skip(`${what} is not a string`));

/** The data elements a block names with a literal `_satellite.getVar('…')`: their values for the event go to the page with it. */
const getVarNames = (text: string) => [...new Set([...text.matchAll(/_satellite\.getVar\(\s*(['"])([^'"]+)\1/g)].map((m) => m[2]!))];

/** Whether global code declares names at its top level (`var`, `let`, `const`, `function`, `class`): they are the page's globals, so it runs there. */
function declaresGlobals(text: string): boolean {
  try {
    const ast = acorn.parse(text, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true });
    return ast.body.some((n) => n.type === 'VariableDeclaration' || n.type === 'FunctionDeclaration' || n.type === 'ClassDeclaration');
  } catch {
    return true;
  }
}

/**
 * Extensions the import runs natively (Core, Analytics, the ECID service, Data Layer Manager's push
 * event and Context Aware data element: the engine's data layer push trigger) or leaves to the
 * Analytics import (the plugins that act on its tracker), and the Web SDK, which stays out:
 * every other extension is run by offtag.js's module host.
 */
const NATIVE = new Set(['core', 'adobe-analytics', 'adobe-mcid', DLM]);
const ANALYTICS_COMPANIONS = new Set(['common-analytics-plugins', 'activity-map-customizer']);
/** A companion whose library holds only data element modules: they read the page, not the tracker, and offtag.js's module host runs them as any extension's. */
const readsOnly = (ext: { modules?: Record<string, unknown> }) => Object.keys(ext.modules ?? {}).every((p) => p.includes('/dataElements/'));
const WEB_SDK = 'adobe-alloy';
const WEB_SDK_XDM = 'adobe-alloy/dist/lib/dataElements/xdmObject/index.js';
const WEB_SDK_IDENTITY_MAP = 'adobe-alloy/dist/lib/dataElements/identityMap/index.js';

function finishArgs(de: LaunchDataElement, notes: string[]): string {
  const f: Record<string, unknown> = {};
  if (de.defaultValue !== undefined) f.defaultValue = de.defaultValue;
  if (de.forceLowerCase) f.forceLowerCase = true;
  if (de.cleanText) f.cleanText = true;
  if (de.storageDuration === 'pageview' || de.storageDuration === 'session') f.storageDuration = de.storageDuration;
  if (de.storageDuration === 'session') notes.push('kept for the session in sessionStorage, as turbine keeps it');
  if (de.storageDuration === 'visitor') notes.push('storage duration "visitor" (localStorage) is not kept: the worker has no localStorage; the value is read afresh');
  return q(f);
}

/** The importer's view of one translation in progress. */
class Translator {
  readonly sessionKeys = new Set<string>();
  /** A Visitor Behavior data element was imported: the container counts page views (src/launch `visitorTrackingRule`). */
  visitorTracking = false;
  readonly missingAssets: string[] = [];
  /** The data elements imported so far (they are translated before the rules). */
  readonly imported = new Set<string>();
  constructor(
    readonly c: LaunchContainer,
    readonly o: TranslateOptions,
    readonly dataLayer: string,
  ) {
    for (const r of c.rules ?? []) for (const a of r.actions ?? []) for (const p of PLUGIN_ACTIONS[a.modulePath] ?? []) if (p.on === 'window') this.windowPlugins.add(p.name);
    const setup = (c.extensions?.['adobe-analytics']?.settings as Settings | undefined)?.customSetup as Settings | undefined;
    if (isCode(setup?.source)) {
      this.setupCode = setup.source.code;
      this.setupPlacement = place(setup.source.code, { dataLayer, thisIs: 'window', globals: [...this.windowPlugins] });
    }
  }

  /** The Analytics customSetup's code and where it runs. */
  setupCode?: string;
  setupPlacement?: Placement;
  /** The Set Variables blocks that run on the page, as function sources, in the order the page's list has them (page-tracker.ts). */
  readonly analyticsPageBlocks: string[] = [];

  /** Data elements whose code writes (cookies, storage): never read ahead of their own time. */
  readonly sideEffectElements = new Set<string>();

  /** The data elements a page Analytics block names whose values go with its step (imported ones that do not write when read). */
  stepValues(code: string): string[] {
    const named = [...new Set([...code.matchAll(/getVar\(\s*(['"])([^'"]+)\1/g)].map((m) => m[2]!))];
    return named.filter((n) => this.imported.has(n) && !this.sideEffectElements.has(n) && !['session', 'visitor'].includes(String(this.c.dataElements?.[n]?.storageDuration ?? '')));
  }

  /**
   * The custom code data elements run on the page whose value a block calls
   * (`_satellite.getVar('x')(…)`, `.getVar('x').f(…)`): a function of the page, which the worker
   * cannot have. With the Analytics extension, the block runs as Analytics code on the page, so that
   * what such site code does to the tracker (`window.s`) reaches it.
   */
  trackerFunctions(code: string): string[] {
    if (!this.c.extensions?.['adobe-analytics']) return [];
    const out: string[] = [];
    for (const m of code.matchAll(/getVar\(\s*(['"])([^'"]+)\1\s*\)\s*(?:\(|\.\s*[\w$]+\s*\()/g)) {
      const de = this.c.dataElements?.[m[2]!];
      if (de?.modulePath === 'core/src/lib/dataElements/customCode.js' && this.pageElements.has(m[2]!) && !out.includes(m[2]!)) out.push(m[2]!);
    }
    return out;
  }

  /** The customSetup runs on the page, and so does the doPlugins it defines. */
  get pagePlugins(): boolean {
    return this.setupPlacement?.where === 'page' && /\bdoPlugins\b/.test(this.setupCode ?? '');
  }

  /** The rule being translated has an Analytics action that may make the tracker, whose customSetup runs on the page. */
  ruleSetupOnPage = false;

  /** A rule's Analytics action that may make the tracker runs the page customSetup as a step of its own. */
  analyticsStep(): void {
    if (this.setupPlacement?.where !== 'page') return;
    this.pageSteps++;
    this.ruleSetupOnPage = true;
  }

  get scopeGlobally(): boolean {
    return ((this.c.extensions?.['adobe-analytics']?.settings as Settings | undefined)?.libraryCode as Settings | undefined)?.scopeTrackerGlobally === true;
  }

  /** Page globals an imported Common Analytics Plugins action puts on the window (the worker's too). */
  readonly windowPlugins = new Set<string>();

  /** Rules with a step on the page: the container's services get the page channel (`launch.withPage`). */
  pageSteps = 0;

  /** A custom code block's text: its function source (`fn`), or the body Core writes into the page; an external file's code from `--assets`, or its URL. */
  blockSource(source: LaunchValue | undefined, settings: Settings, notes: string[]): { text: string; fn: boolean } | { url: string } {
    if (settings.isExternal === true || (typeof source === 'string' && /^https?:|\.js$/.test(source) && !/\s/.test(source))) {
      const url = str(source, 'the external code URL');
      const code = this.asset(url, notes);
      return code === undefined ? { url } : { text: code, fn: false };
    }
    if (isCode(source)) return { text: source.code, fn: true };
    if (typeof source === 'string') return { text: source, fn: false };
    return skip('custom code without a source');
  }

  /** A block's text as a function's source, for the worker and the page reads. */
  private functionOf(b: { text: string; fn: boolean }): string {
    return b.fn ? b.text : `function (event) {\n${b.text}\n}`;
  }

  /**
   * Where a Core custom code block runs (custom-code.ts `place`): on the page too when it calls a
   * helper that a customSetup run on the page defined on `s`.
   */
  placeCore(fn: string): Placement {
    const p = place(fn, { dataLayer: this.dataLayer, thisIs: 'element', globals: [...this.windowPlugins] });
    const helper = p.where === 'worker' && p.globals?.includes('s') ? this.pageHelperCalled(fn, 's') : undefined;
    return helper ? { ...p, where: 'page', reason: `it calls \`s.${helper}\`, which the Analytics customSetup defines on the page` } : p;
  }

  /**
   * Worker code for a block placed in the worker. `own`: a data element, which declares the data
   * layer paths it reads itself (`reads`); any other block's go into `blockReads`.
   */
  private workerCode(fn: string, p: Placement, notes: string[], own = false): { factory: string; sideEffects: boolean; reads: true | string[] | undefined } {
    p.sessionKeys.forEach((k) => this.sessionKeys.add(k));
    notes.push(p.readsDataLayer ? `custom code in the worker, reading the snapshot of ${this.dataLayer}` : 'custom code in the worker');
    this.usePageGlobals(p, notes);
    const reads = p.readsDataLayer ? (p.dataLayerPaths ?? true) : undefined;
    if (!own) this.useDataLayer(reads);
    return { factory: workerFactory(p), sideEffects: p.sideEffects, reads };
  }

  /**
   * The data layer paths the worker's blocks other than data elements read (rule conditions and
   * actions, the Analytics blocks): the container declares them in a data element of their own,
   * `offtag:data layer reads`, so that the bridge's copy of the layer (its read set) holds them.
   * null: one of them may read any of it, and the whole layer travels.
   */
  blockReads: Set<string> | null = new Set();

  useDataLayer(reads: true | string[] | undefined): void {
    if (reads === true) this.blockReads = null;
    else if (reads) reads.forEach((r) => this.blockReads?.add(r));
  }

  /**
   * Core's custom code action: in the worker when its code can run there (custom-code.ts `place`),
   * else a step on the page (src/launch/page-steps.ts) — JavaScript (global code as written), HTML,
   * or an external file loaded from the library's host when the action runs.
   */
  customCodeAction(s: Settings, o: ActionOptions, page: PageStepOptions, notes: string[]): string {
    const html = s.language === 'html';
    const b = this.blockSource(s.source, s, notes);
    const step = (code: string) => {
      this.pageSteps++;
      return code;
    };
    const opts = (extra: Record<string, unknown>, names?: string[]) => q({ ...o, ...page, ...extra, ...(names?.length ? { names } : {}) });
    if ('url' in b) {
      notes.push(`custom code in ${basename(new URL(b.url, 'https://assets.invalid/').pathname)}, loaded from the library's host when the action runs, as turbine loads it`);
      return step(`launch.externalCode(${q(b.url)}, ${q(html ? 'html' : 'javascript')}, ${opts(s.global === true ? { global: true } : {})})`);
    }
    if (html) {
      notes.push('HTML custom code written into the page');
      return step(`launch.pageHtml(${q(b.text)}, ${opts({})})`);
    }
    const fn = this.functionOf(b);
    const viaTracker = s.global === true ? [] : this.trackerFunctions(b.text);
    if (viaTracker.length) {
      notes.push(
        `custom code on the page, at its place in the rule, with the Analytics tracker as window.s (the worker's s sent with it, its writes to s replayed here), because it calls the function ${viaTracker.map((n) => q(n)).join(', ')} gives, site code on the page that may set the tracker`,
      );
      this.pageSteps++;
      this.analyticsBlocks.page++;
      const names = this.stepValues(fn);
      const block = this.analyticsPageBlocks.push(fn) - 1;
      return `launch.trackerCode(analytics, ${q({ block, ...(names.length ? { names } : {}) })}, ${q(o)})`;
    }
    // Global code declares the page's globals: it runs on the page, as a script of its own.
    const declares = s.global === true && declaresGlobals(b.text);
    const p: Placement = declares ? { where: 'page' as const, reason: 'it is global code that declares names of the page', sideEffects: false, sessionKeys: [] } : this.placeCore(fn);
    if (p.where === 'worker' && !(s.global === true && b.fn)) {
      const { factory } = this.workerCode(s.global === true ? `function (event) {\n${b.text}\n}` : fn, p, notes);
      return `launch.customAction(${factory}, ${q(o)})`;
    }
    notes.push(`custom code on the page because ${p.reason ?? 'it needs the page'}`);
    return step(`launch.pageCode(${q(b.text)}, ${opts({ ...(s.global === true ? { global: true } : {}), ...(b.fn ? { fn: true } : {}) }, getVarNames(b.text))})`);
  }

  /** Data elements read on the page with each event (their rules are partly on the page). */
  readonly pageElements = new Set<string>();

  /** Notes a data element read on the page (offtag.js reads it when it takes each event's snapshot). */
  onPage(notes: string[], what: string): void {
    notes.push(`${what} read on the page with each event (offtag.js, built with it)`);
  }

  /**
   * A custom code data element or condition: in the worker when it can run there, else read on the
   * page with each event (of its rule, for a condition): its source text, which offtag build writes
   * into offtag.js as a function of its own. A data element using `this` is not imported: a data
   * element gets no element (Core calls a condition with the event's element, a data element without).
   */
  placeRead(source: LaunchValue | undefined, settings: Settings, notes: string[], kind: 'data element' | 'condition', name = ''): { factory: string; sideEffects: boolean; reads: true | string[] | undefined } | { read: string } {
    const b = this.blockSource(source, settings, notes);
    if ('url' in b) return skip('custom code in an external file, which a data element or condition cannot load');
    const fn = this.functionOf(b);
    const placed = this.placeCore(fn);
    const valueOnPage = kind === 'data element' && placed.where === 'worker' && !this.readInWorker(name) ? pageOnlyValue(fn) : undefined;
    const p: Placement = valueOnPage ? { ...placed, where: 'page', reason: valueOnPage } : placed;
    if (p.where === 'worker') return this.workerCode(fn, p, notes, kind === 'data element');
    if (kind === 'data element' && /^it uses `this`/.test(p.reason ?? '')) skip('custom code needs the page and uses `this`, which a data element read on the page does not get');
    notes.push(`custom code on the page because ${p.reason ?? 'it needs the page'}: offtag.js runs it with each event${kind === 'condition' ? ' of its rule' : ''}`);
    return { read: q(fn) };
  }

  /**
   * Whether custom code that runs in the worker reads the data element `name`
   * (`_satellite.getVar('name')`): a function or promise it gives then stays in the worker, where
   * that code calls it, as under turbine.
   */
  private readInWorker(name: string): boolean {
    const call = new RegExp(`getVar\\(\\s*(['"\`])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\1\\s*\\)`);
    const blocks: string[] = [];
    for (const [other, de] of Object.entries(this.c.dataElements ?? {})) if (other !== name && isCode(de.settings?.source)) blocks.push((de.settings!.source as { code: string }).code);
    for (const r of this.c.rules ?? [])
      for (const c of [...(r.conditions ?? []), ...(r.actions ?? [])]) {
        const src = c.settings?.source;
        if (isCode(src)) blocks.push(src.code);
        else if (typeof src === 'string' && c.settings?.language !== 'html' && !/^https?:\/\//.test(src)) blocks.push(`function (event) {\n${src}\n}`);
      }
    return blocks.some((b) => call.test(b) && this.placeCore(b).where === 'worker');
  }

  /**
   * The code of an external custom code file from `--assets` (a `_satellite.__registerScript(url, code)`
   * file), or undefined when the file is not there: the page then loads it from the library's host.
   */
  asset(url: string, notes: string[]): string | undefined {
    const file = basename(new URL(url, 'https://assets.invalid/').pathname);
    if (!this.o.assets) return undefined;
    let text: string;
    try {
      text = readFileSync(join(this.o.assets, file), 'utf8');
    } catch {
      this.missingAssets.push(file);
      notes.push(`${file} is not in ${this.o.assets}`);
      return undefined;
    }
    let code: unknown;
    try {
      vm.runInNewContext(text, { _satellite: { __registerScript: (_u: string, c: string) => (code = c) } }, { timeout: 1000 });
    } catch {
      /* judged below */
    }
    if (typeof code === 'string') {
      notes.push(`the code of ${file} (from ${this.o.assets})`);
      return code;
    }
    return skip(`${file} is not a _satellite.__registerScript file`);
  }

  dataElement(name: string, de: LaunchDataElement, notes: string[]): string {
    const s = (de.settings ?? {}) as Settings;
    const f = finishArgs(de, notes);
    if (de.storageDuration === 'session') this.sessionKeys.add(storedKey(name));
    if (de.modulePath === DLM_STATE) {
      const conversions = Object.fromEntries(['convertTrueToOne', 'convertFalseToZero', 'convertUndefinedToZero'].filter((k) => s[k] === true).map((k) => [k, true]));
      notes.push(`Data Layer Manager state of ${this.dlmDataLayer()} at ${q(typeof s.dataLayerPath === 'string' ? s.dataLayerPath : '')}, from the latest push event`);
      return `launch.dataLayerState(${q(typeof s.dataLayerPath === 'string' ? s.dataLayerPath : '')}, ${q(conversions)}, ${f})`;
    }
    switch (de.modulePath.replace(CORE + 'dataElements/', '')) {
      case 'javascriptVariable.js': {
        const path = str(s.path, 'the path');
        if (!workerReadablePath(path, this.dataLayer)) {
          this.onPage(notes, `JavaScript variable ${path} (outside the data layer, ${this.dataLayer})`);
          return `launch.pageVariable(${q(path)}, ${f})`;
        }
        notes.push(`JavaScript variable ${path}`);
        return `launch.javascriptVariable(${q(path)}, ${f})`;
      }
      case 'cookie.js':
        notes.push(`cookie ${str(s.name, 'the cookie name')}`);
        return `launch.cookie(${q(s.name)}, ${f})`;
      case 'constant.js':
        return `launch.constant(${q(s.value ?? '')}, ${f})`;
      case 'queryStringParameter.js':
        return `launch.queryStringParameter(${q(str(s.name, 'the parameter name'))}, ${s.caseInsensitive === true}, ${f})`;
      case 'pageInfo.js':
        if (s.attribute === 'title') {
          this.onPage(notes, 'Page Info "title" (document.title)');
          return `launch.pageTitle(${f})`;
        }
        if (!['url', 'hostname', 'pathname', 'protocol', 'referrer'].includes(String(s.attribute))) skip(`Page Info "${String(s.attribute)}" is not a known attribute`);
        return `launch.pageInfo(${q(s.attribute)}, ${f})`;
      case 'mergedObjects.js':
        return `launch.mergedObjects(${q(Array.isArray(s.objects) ? s.objects : skip('the objects to merge are missing'))}, ${f})`;
      case 'localStorage.js':
        this.onPage(notes, `Local Storage item ${q(str(s.name, 'the item name'))}`);
        return `launch.localStorageItem(${q(s.name)}, ${f})`;
      case 'domAttribute.js': {
        const selector = str(s.elementSelector, 'the element selector');
        const property = str(s.elementProperty, 'the element property');
        this.onPage(notes, `DOM Attribute ${q(property)} of ${q(selector)}`);
        return `launch.domAttribute(${q(selector)}, ${q(property)}, ${f})`;
      }
      case 'visitorBehavior.js':
        if (!VISITOR_ATTRIBUTES.includes(s.attribute as VisitorAttribute)) skip(`Visitor Behavior ${q(s.attribute ?? '')} is not an attribute of Core's data element`);
        this.sessionKeys.add(VISITOR_SESSION_KEY);
        this.visitorTracking = true;
        notes.push(`counted in the worker: the session's facts in sessionStorage (${VISITOR_SESSION_KEY}), the visitor's counts in the ${VISITOR_COOKIE} cookie`);
        return `launch.visitorBehavior(${q(s.attribute)}, ${f})`;
      case 'randomNumber.js':
      {
        const min = Number(s.min ?? 0);
        const max = Number(s.max ?? 1000000000);
        if (!Number.isFinite(min) || !Number.isFinite(max) || Math.ceil(min) > Math.floor(max)) skip(`Random Number from ${q(s.min)} to ${q(s.max)} is not a range of integers`);
        notes.push('random number from the engine\'s random source, one value per event');
        return `launch.randomNumber(${min}, ${max}, ${f})`;
      }
      case 'conditionalValue.js': {
        const cmp = (s.comparison ?? {}) as Settings;
        const values = { ...(s.conditionalValue !== undefined ? { conditionalValue: s.conditionalValue } : {}), ...(s.fallbackValue !== undefined ? { fallbackValue: s.fallbackValue } : {}) };
        return `launch.conditionalValue(${q(s.leftOperand)}, ${q(str(cmp.operator, 'the operator'))}, ${q(s.rightOperand ?? null)}, ${cmp.caseInsensitive === true}, ${q(values)}, ${f})`;
      }
      case 'runtimeEnvironment.js': {
        const bi = (this.c.buildInfo ?? {}) as Settings;
        const property = (this.c.property ?? {}) as Settings;
        // The library's own facts are constants; the environment and the event's are the worker's.
        const known: Record<string, unknown> = { buildDate: bi.buildDate, propertyName: property.name, propertyId: property.id };
        if (typeof s.attribute === 'string' && s.attribute in known) {
          notes.push(`Runtime Environment ${q(s.attribute)}: the library's`);
          return `launch.constant(${q(known[s.attribute] ?? '')}, ${f})`;
        }
        if (!['environmentStage', 'eventType', 'eventDetail', 'DCRIdentifier'].includes(String(s.attribute))) skip(`Runtime Environment ${q(s.attribute ?? '')} is not an attribute the import supports (a rule's name or id needs the rule, which a data element does not get here)`);
        return `launch.runtimeEnvironment(${q(s.attribute)}, ${f})`;
      }
      case 'sessionStorage.js':
        this.sessionKeys.add(str(s.name, 'the item name'));
        return `launch.sessionStorageItem(${q(s.name)}, ${f})`;
      case 'customCode.js': {
        const placed = this.placeRead(s.source, s, notes, 'data element', name);
        if ('read' in placed) return `launch.pageCustomCode(${placed.read}, ${f})`;
        const { factory, sideEffects, reads } = placed;
        if (sideEffects) this.sideEffectElements.add(name);
        return `launch.customCode(${factory}, ${f}${sideEffects || reads ? `, ${sideEffects}` : ''}${reads ? `, ${q(reads)}` : ''})`;
      }
      default:
        // The ECID extension's data element: the visitor's MCMID once the visitor service knows it.
        if (de.modulePath === 'adobe-mcid/src/lib/dataElements/ecid.js') return `launch.ecidValue(${f})`;
        // The Web SDK's two data elements that only shape their settings: in the worker (its sending stays out).
        if (de.modulePath === WEB_SDK_XDM) {
          notes.push('Web SDK XDM object: its data with the tokens replaced, in the worker');
          return `launch.xdmObject(${q(s.data ?? {})}, ${f})`;
        }
        if (de.modulePath === WEB_SDK_IDENTITY_MAP) {
          notes.push('Web SDK identity map: its identities with the tokens replaced, those with an ID kept, in the worker');
          return `launch.identityMap(${q(s)}, ${f})`;
        }
        if (!de.modulePath.startsWith(CORE)) return this.extensionDataElement(de, f, notes);
        return skip(`${de.modulePath} is not a data element type the import supports`);
    }
  }

  event(e: LaunchComponent & { ruleOrder?: number }, notes: string[] = [], rule = ''): string {
    const s = (e.settings ?? {}) as Settings;
    if (e.modulePath === DLM_PUSH) {
      const eventType = str(s.eventType, 'the Data Layer Push event type');
      const global = this.dlmDataLayer();
      notes.push(`Data Layer Manager push of ${q(eventType)} into ${global} observed on the page (offtag-triggers.js)`);
      return `launch.dataLayerPush(${q(global)}, ${q(eventType)}, "dlm")`;
    }
    const module = e.modulePath.replace(CORE + 'events/', '');
    const dom = DOM_EVENTS[module];
    if (dom) {
      notes.push(`${q(dom)} events observed on the page (offtag-triggers.js), on document as Launch listens`);
      return `launch.domEvent(${q(dom)}${this.bubbly(s)})`;
    }
    switch (module) {
      case 'libraryLoaded.js':
        return 'launch.libraryLoaded()';
      case 'domReady.js':
        return 'launch.domReady()';
      case 'windowLoaded.js':
        return 'launch.windowLoaded()';
      case 'pageBottom.js':
        notes.push('Page Bottom at _satellite.pageBottom(), else just before the DOM Ready rules');
        return 'launch.pageBottom()';
      case 'directCall.js':
        return `launch.directCall(${q(str(s.identifier, 'the identifier'))})`;
      case 'customEvent.js':
        notes.push(`custom event ${q(str(s.type, 'the event type'))} observed on the page (offtag-triggers.js), on window as Launch listens`);
        return `launch.customEvent(${q(s.type)}${this.bubbly(s)})`;
      case 'click.js':
        if (s.anchorDelay) notes.push(`Click's "delay link navigation" (anchorDelay ${q(s.anchorDelay)} ms) is not offered: Offtag never holds the page's navigation`);
        notes.push('click observed on the page (offtag-triggers.js)');
        return `launch.click(${this.bubbly(s, true)})`;
      case 'submit.js':
        notes.push('form submission observed on the page (offtag-triggers.js)');
        return `launch.formSubmission(${this.bubbly(s, true)})`;
      case 'entersViewport.js': {
        const o: Settings = { ...this.elementProperties(s) };
        if (s.delay !== undefined && s.delay !== '' && s.delay !== 0) {
          const delay = Number(s.delay);
          if (!(delay > 0)) skip(`Enters Viewport's "in view for" ${q(s.delay)} is not a number of milliseconds`);
          o.delay = delay;
        }
        notes.push('element entering the viewport observed on the page (offtag-triggers.js)');
        const frequency = s.frequency ? q(s.frequency) : Object.keys(o).length ? 'undefined' : '';
        return `launch.entersViewport(${q(str(s.elementSelector, 'the selector'))}${frequency ? `, ${frequency}` : ''}${Object.keys(o).length ? `, ${q(o)}` : ''})`;
      }
      case 'timeOnPage.js': {
        const seconds = Number(s.timeOnPage);
        if (!(seconds > 0)) skip(`Time On Page of ${q(s.timeOnPage ?? null)} seconds is not a time`);
        notes.push('time on page counted on the page (offtag-triggers.js)');
        return `launch.timeOnPage(${seconds})`;
      }
      case 'dataElementChange.js': {
        const name = str(s.name, 'the data element name');
        if (!this.c.dataElements?.[name]) skip(`Data Element Change: the library has no data element "${name}"`);
        if (!this.imported.has(name)) skip(`Data Element Change: the data element "${name}" was not imported`);
        notes.push(`data element "${name}" compared on each event's snapshot: a change shows with the page's next event, not within Launch's 1-second poll`);
        return `launch.dataElementChange(${q(name)})`;
      }
      case 'historyChange.js':
        notes.push('history change (pushState, replaceState, popstate, hashchange) observed on the page (offtag-triggers.js)');
        return 'launch.historyChange()';
      case 'elementExists.js': {
        const o = this.elementProperties(s);
        notes.push('element observed on the page as it is added (offtag-triggers.js), not within Launch\'s 3-second poll');
        return `launch.elementExists(${q(str(s.elementSelector, 'the selector'))}${o.elementProperties ? `, ${q(o)}` : ''})`;
      }
      case 'hover.js': {
        const delay = s.delay === undefined || s.delay === '' ? 0 : Number(s.delay);
        notes.push(`mouse hover${delay ? ` of ${delay} ms` : ''} observed on the page (offtag-triggers.js)`);
        const o = this.bubbling(s);
        // Core falls back to no delay when the setting is not a number.
        return `launch.hover(${q(str(s.elementSelector, 'the selector'))}, ${Number.isFinite(delay) && delay > 0 ? delay : 0}${Object.keys(o).length ? `, ${q(o)}` : ''})`;
      }
      case 'mediaTimePlayed.js': {
        const amount = Number(s.amount);
        const unit = s.unit === 'percent' ? 'percent' : s.unit === 'second' || s.unit === undefined ? 'second' : skip(`Media Time Played unit ${q(s.unit)} is neither "second" nor "percent"`);
        if (!(amount > 0)) skip(`Media Time Played amount ${q(s.amount ?? null)} is not a number above 0`);
        notes.push(`media time played (${amount}${unit === 'percent' ? '%' : ` second${amount === 1 ? '' : 's'}`}) observed on the page (offtag-triggers.js)`);
        return `launch.mediaTimePlayed(${amount}, ${q(unit)}${this.bubbly(s)})`;
      }
      case 'customCode.js': {
        const source = s.source;
        const block = isCode(source) ? source.code : typeof source === 'string' ? `function (trigger) {\n${source}\n}` : skip('custom code event without a source');
        notes.push('custom code event: its block runs on the page when offtag.js starts, and the rule fires when it calls trigger');
        return `launch.customCodeEvent(${q(block)}, ${this.codeEvents++})`;
      }
      default:
        if (!e.modulePath.startsWith(CORE)) return this.extensionEvent(e, rule, notes);
        return skip(`event ${e.modulePath} is not one the engine observes yet`);
    }
  }

  /**
   * Adobe's `elementProperties` filter, checked on the page as the event happens (offtag-triggers.js):
   * names and text values as written; a value with a %data element% token (which turbine expands
   * when the rule is set up, on the page) or a regular expression that does not compile is not imported.
   */
  private elementProperties(s: Settings): { elementProperties?: Array<{ name: string; value: string; valueIsRegex?: boolean }> } {
    if (s.elementProperties === undefined || (Array.isArray(s.elementProperties) && !s.elementProperties.length)) return {};
    if (!Array.isArray(s.elementProperties)) skip('the element property filter (elementProperties) is not a list');
    const out = (s.elementProperties as Settings[]).map((p) => {
      const name = str(p.name, 'an element property name');
      const value = p.value === undefined || p.value === null ? '' : String(p.value);
      if (/%[^%\n]+%/.test(value)) skip(`element property ${q(name)} = ${q(value)}: a %data element% token in an element property filter is not imported`);
      if (p.valueIsRegex === true) {
        try {
          new RegExp(value, 'i');
        } catch {
          skip(`element property ${q(name)}: ${q(value)} is not a regular expression`);
        }
      }
      return { name, value, ...(p.valueIsRegex === true ? { valueIsRegex: true } : {}) };
    });
    return { elementProperties: out };
  }

  /**
   * The arguments after the event type: the selector, then `{bubbling options, elementProperties}`
   * (bubbling only with a selector: without one the event fires for its target only).
   */
  private bubbly(s: Settings, selectorFirst = false): string {
    const o = this.bubbling(s);
    const sel = s.elementSelector ? q(str(s.elementSelector, 'the selector')) : Object.keys(o).length ? 'undefined' : '';
    const args = [sel, Object.keys(o).length ? q(o) : ''].filter(Boolean).join(', ');
    return selectorFirst ? args : args ? `, ${args}` : '';
  }

  /** Adobe's bubbling options (only with a selector) and element property filter, as the runtime's events take them. */
  private bubbling(s: Settings): Settings {
    const o: Settings = s.elementSelector
      ? Object.fromEntries((['bubbleFireIfParent', 'bubbleFireIfChildFired', 'bubbleStop'] as const).filter((k) => typeof s[k] === 'boolean').map((k) => [k, s[k]]))
      : {};
    return Object.assign(o, this.elementProperties(s));
  }

  /** Core's Custom Code events so far: each one's direct call is numbered. */
  codeEvents = 1;

  /** The array Data Layer Manager manages (its extension's `dataLayerObjectName`, by default `appEventData`). */
  dlmDataLayer(): string {
    const name = (this.c.extensions?.[DLM]?.settings as Settings | undefined)?.dataLayerObjectName;
    const global = typeof name === 'string' && name ? name : 'appEventData';
    if (!/^[A-Za-z_$][\w$]*$/.test(global)) skip(`Data Layer Manager's data layer ${q(global)} is not a page global the import supports`);
    return global;
  }


  condition(c: LaunchComponent & { negate?: boolean; timeout?: number }, notes: string[]): string {
    const s = (c.settings ?? {}) as Settings;
    const o = q({ ...(c.negate ? { negate: true } : {}), ...(c.timeout !== undefined ? { timeout: c.timeout } : {}) });
    const m = (list: LaunchValue | undefined) => q(Array.isArray(list) ? list : skip('the list of values is missing'));
    const match = q({ value: s.value ?? '', valueIsRegex: s.valueIsRegex === true });
    switch (c.modulePath.replace(CORE + 'conditions/', '')) {
      case 'valueComparison.js': {
        const cmp = (s.comparison ?? {}) as Settings;
        return `launch.valueComparison(${q(s.leftOperand)}, ${q(str(cmp.operator, 'the operator'))}, ${q(s.rightOperand ?? null)}, ${cmp.caseInsensitive === true}, ${o})`;
      }
      case 'domain.js':
        return `launch.domain(${m(s.domains)}, ${o})`;
      case 'path.js':
        return `launch.path(${m(s.paths)}, ${o})`;
      case 'pathAndQuerystring.js':
        return `launch.pathAndQuerystring(${m(s.paths)}, ${o})`;
      case 'subdomain.js':
        return `launch.subdomain(${m(s.subdomains)}, ${o})`;
      case 'queryStringParameter.js':
        return `launch.queryStringParameterIs(${q(s.name)}, ${match}, ${o})`;
      case 'cookie.js':
        return `launch.cookieIs(${q(s.name)}, ${match}, ${o})`;
      case 'variable.js': {
        const path = str(s.name, 'the variable');
        if (!workerReadablePath(path, this.dataLayer)) {
          // A page global: compared on the page with each event of the rule, as Core's Variable condition.
          notes.push(`variable ${path} (outside the data layer, ${this.dataLayer}) compared on the page`);
          const keys = q(path.replace(/\[(\d+)\]/g, '.$1').split('.'));
          const test = s.valueIsRegex === true ? `new RegExp(${q(String(s.value ?? ''))}, "i").test(String(v))` : `String(v) === ${q(String(s.value ?? ''))}`;
          const read = `function (event) {\n  var v = ${keys}.reduce(function (o, k) { return o == null ? undefined : o[k]; }, window);\n  return v !== undefined && v !== null && ${test};\n}`;
          return `launch.pageCondition(${q(read)}, ${o}, "Variable")`;
        }
        const [root, ...rest] = splitPath(path);
        if (root === this.dataLayer) this.useDataLayer(rest.length ? [rest.join('.')] : true);
        return `launch.variableIs(${q(path)}, ${match}, ${o})`;
      }
      case 'customCode.js': {
        const placed = this.placeRead(s.source, s, notes, 'condition');
        return 'read' in placed ? `launch.pageCondition(${placed.read}, ${o})` : `launch.customCondition(${placed.factory}, ${o})`;
      }
      case 'windowSize.js': {
        // The document's client size (without scroll bars), compared on the page with each event of the rule, as Core reads it.
        const ops = ['>', '<', '='];
        for (const k of ['widthOperator', 'heightOperator']) if (!ops.includes(String(s[k]))) skip(`Window Size ${k} ${q(s[k] ?? null)} is not one of >, <, =`);
        notes.push('window size compared on the page');
        const test = (side: string, op: string, n: LaunchValue | undefined) => `${side} ${op === '=' ? '===' : op} ${q(n ?? null)}`;
        return `launch.pageCondition(${q(`function (event) {\n  var d = document.documentElement;\n  return ${test('d.clientWidth', String(s.widthOperator), s.width)} && ${test('d.clientHeight', String(s.heightOperator), s.height)};\n}`)}, ${o}, "Window Size")`;
      }
      case 'browser.js':
        return `launch.clientIs("browser", ${m(s.browsers)}, ${o})`;
      case 'operatingSystem.js':
        return `launch.clientIs("operatingSystem", ${m(s.operatingSystems)}, ${o})`;
      case 'deviceType.js':
        return `launch.clientIs("deviceType", ${m(s.deviceTypes)}, ${o})`;
      default:
        if (!c.modulePath.startsWith(CORE)) return this.extensionCondition(c, o, notes);
        return skip(`condition ${c.modulePath} is not one the import supports`);
    }
  }

  /**
   * Page globals worker blocks read as data: each a data element read on the page with every event
   * (src/launch virtual-page.ts), holding only the paths the blocks read (null: any of it).
   */
  readonly pageGlobals = new Map<string, Set<string> | null>();

  usePageGlobals(p: Placement, notes: string[]): void {
    const names = p.pageGlobals;
    if (!names?.length) return;
    for (const n of names) {
      const paths = p.pageGlobalPaths?.[n];
      const seen = this.pageGlobals.get(n);
      if (seen === null) continue;
      this.pageGlobals.set(n, paths ? new Set([...(seen ?? []), ...paths]) : null);
    }
    notes.push(`${PAGE_GLOBAL_NOTE} ${names.map((n) => `\`${n}\``).join(', ')}, read on the page with each event`);
  }

  /**
   * A method a Set Variables block calls on its `s` (the block's second parameter) that only a
   * customSetup run on the page defines: the block must run there too (functions stay on the page).
   */
  pageHelperCalled(fn: string, name?: string): string | undefined {
    if (this.setupPlacement?.where !== 'page') return undefined;
    const param = name ?? /^\s*function\s*[\w$]*\s*\(\s*[\w$]+\s*,\s*([\w$]+)/.exec(fn)?.[1];
    if (!param) return undefined;
    for (const m of fn.matchAll(new RegExp(`(?<![\\w$.])${param.replace(/\$/g, '\\$')}\\.([\\w$]+)\\s*\\(`, 'g'))) if (!WORKER_S_METHODS.has(m[1]!)) return m[1];
    return undefined;
  }

  /** Analytics custom code blocks, by where they run (the report's and the corpus survey's counts). */
  readonly analyticsBlocks = { worker: 0, page: 0 };

  /**
   * Set Variables: its tracker properties as written (tokens expanded when it runs), and its custom
   * code block in the worker when the block can run there (`this` the element, `(event, s)`).
   */
  setVariables(s: Settings, o: string, notes: string[]): string {
    const source = (s.customSetup as Settings | undefined)?.source;
    const props = q(s.trackerProperties ?? {});
    this.analyticsStep();
    if (source === undefined || source === null || source === '') return `launch.setVariables(analytics, ${props}, undefined, ${o})`;
    const fn = isCode(source) ? source.code : typeof source === 'string' ? `function (event, s) {\n${source}\n}` : skip('a Set Variables custom code block without a source');
    let p = place(fn, { dataLayer: this.dataLayer, thisIs: 'element', globals: [...this.windowPlugins] });
    const pageHelper = p.where === 'worker' ? this.pageHelperCalled(fn) : undefined;
    if (pageHelper) p = { ...p, where: 'page', reason: `it calls \`s.${pageHelper}\`, which the customSetup defines on the page` };
    if (p.where === 'page') {
      this.analyticsBlocks.page++;
      notes.push(`its custom code on the page, at its place in the rule (the worker's s sent with it, its writes to s replayed here), because ${p.reason}`);
      this.pageSteps++;
      const names = this.stepValues(fn);
      const block = this.analyticsPageBlocks.push(fn) - 1;
      return `launch.setVariables(analytics, ${props}, undefined, ${o}, ${q({ block, ...(names.length ? { names } : {}) })})`;
    }
    this.analyticsBlocks.worker++;
    p.sessionKeys.forEach((k) => this.sessionKeys.add(k));
    notes.push('its custom code in the worker');
    this.usePageGlobals(p, notes);
    if (p.readsDataLayer) this.useDataLayer(p.dataLayerPaths ?? true);
    return `launch.setVariables(analytics, ${props}, ${workerFactory(p)}, ${o})`;
  }

  action(a: LaunchComponent & { timeout?: number; delayNext?: boolean }, notes: string[]): string {
    const s = (a.settings ?? {}) as Settings;
    const base: ActionOptions = { ...(a.timeout !== undefined ? { timeout: a.timeout } : {}), ...(a.delayNext === false ? { delayNext: false } : {}) };
    const o = q(base);
    if (a.modulePath === CORE + 'actions/customCode.js') {
      const html = s.language === 'html' && typeof s.source === 'string' && s.isExternal !== true ? scriptSources(s.source) : undefined;
      if (html?.length === 1) {
        notes.push(`third-party script ${html[0]}`);
        return `launch.loadScript(${q('launch-' + html[0]!.replace(/\W+/g, '-').slice(-40))}, ${q(html[0])}, ${o})`;
      }
      return this.customCodeAction(s, base, this.stepOptions(a), notes);
    }
    if (a.modulePath === ANALYTICS + 'setVariables.js') return this.setVariables(s, o, notes);
    if (a.modulePath === ANALYTICS + 'sendBeacon.js') {
      const link = s.type === 'link';
      this.analyticsStep();
      // With a customSetup on the page, its doPlugins runs there for this beacon (its record replaces it in the worker).
      if (this.pagePlugins) notes.push("doPlugins on the page, at the beacon (the worker's s sent with it, its writes replayed here)");
      return `launch.sendBeacon(analytics, ${q({ type: link ? 'link' : 'page', ...(s.linkType ? { linkType: s.linkType } : {}), ...(s.linkName !== undefined ? { linkName: s.linkName } : {}) })}, ${o}${this.pagePlugins ? ', true' : ''})`;
    }
    if (a.modulePath === ANALYTICS + 'clearVariables.js') {
      this.analyticsStep();
      return `launch.clearVariables(analytics, ${o})`;
    }
    if (PLUGIN_ACTIONS[a.modulePath]) return `launch.initializePlugins(${q(PLUGIN_ACTIONS[a.modulePath])}, ${o})`;
    if (a.modulePath === ECID + 'setCustomerIds.js') return `launch.setCustomerIds(${q(s.customerIds ?? [])}, ${o})`;
    const { name } = this.hosted(a.modulePath, 'action');
    notes.push(`${name} run on the page by offtag.js's module host`);
    this.pageSteps++;
    return `launch.moduleAction(${q(name)}, ${q(a.modulePath)}, ${q(s)}, ${q({ ...base, ...this.stepOptions(a) })})`;
  }

  /**
   * What a page step takes: it holds its rule as turbine holds it — when the property sequences
   * rule components and the action says the next one waits (`delayNext`, which a published build
   * writes on each action of such a property); Core's CSP nonce.
   */
  private stepOptions(a: { delayNext?: boolean }): PageStepOptions {
    const nonce = (this.c.extensions?.core?.settings as Settings | undefined)?.cspNonce;
    const waits = this.c.property?.settings?.ruleComponentSequencingEnabled !== false && a.delayNext === true;
    return { ...(waits ? { wait: true } : {}), ...(typeof nonce === 'string' && nonce ? { nonce } : {}) };
  }

  /** Extensions whose modules offtag.js's module host runs (each with every module, as turbine runs them all at load). */
  readonly hostedExtensions = new Set<string>();

  /**
   * The extension of a module that offtag.js's module host runs, and the module's name as turbine
   * names it in messages; or why it is not imported.
   */
  hosted(modulePath: string, what: string): { key: string; name: string; moduleName: string } {
    const key = modulePath.split('/')[0]!;
    const ext = this.c.extensions?.[key];
    if (!ext) return skip(`${what} ${modulePath}: its extension is not in the library`);
    if (key === WEB_SDK) return skip(`${what} ${modulePath}: the Adobe Experience Platform Web SDK (alloy) is not imported in this version`);
    if (ANALYTICS_COMPANIONS.has(key) && !readsOnly(ext)) return skip(`${what} ${modulePath}: the ${ext.displayName} extension works on the Analytics tracker (s), which the Analytics import runs`);
    if (NATIVE.has(key)) return skip(`${what} ${modulePath} is not one the import supports`);
    const m = ext.modules?.[modulePath];
    if (!m || !isCode(m.script)) return skip(`${what} ${modulePath}: the library has no script for this module`);
    this.hostedExtensions.add(key);
    return { key, name: m.displayName ?? m.name ?? modulePath, moduleName: m.name ?? modulePath.replace(/^.*\/|\.js$/g, '') };
  }

  /** Another extension's data element: read on the page with each event by offtag.js's module host. */
  extensionDataElement(de: LaunchDataElement, finish: string, notes: string[]): string {
    const { name } = this.hosted(de.modulePath, 'data element');
    this.onPage(notes, `${name} (offtag.js's module host runs the extension's module)`);
    return `launch.pageModule(${q(de.modulePath)}, ${q(functionsMarked(de.settings ?? {}))}, ${finish})`;
  }

  /** Another extension's condition: read on the page with each event of its rule by offtag.js's module host. */
  extensionCondition(c: LaunchComponent, o: string, notes: string[]): string {
    const { name } = this.hosted(c.modulePath, 'condition');
    notes.push(`${name} read on the page by offtag.js's module host`);
    return `launch.pageModuleCondition(${q(name)}, ${q(c.modulePath)}, ${q(functionsMarked(c.settings ?? {}))}, ${o})`;
  }

  /** The extensions' events of the rule being translated: kept when the rule is imported (`commitEvents`). */
  private pendingEvents: Array<PageSide['events'][number] & { order: number }> = [];
  readonly extensionEvents: Array<PageSide['events'][number] & { order: number }> = [];

  /** Another extension's event: its module set up on the page by offtag.js's module host; its trigger runs the rule in the worker. */
  extensionEvent(e: LaunchComponent & { ruleOrder?: number }, rule: string, notes: string[]): string {
    const { key, name, moduleName } = this.hosted(e.modulePath, 'event');
    const n = this.extensionEvents.length + this.pendingEvents.length + 1;
    const spec = `launch.extensionEvent(${q(key)}, ${q(moduleName)}, ${n})`;
    this.pendingEvents.push({ key: `offtag-launch:${key}.${moduleName}:${n}`, module: e.modulePath, settings: e.settings ?? {}, rule, displayName: name, order: e.ruleOrder ?? 50 });
    notes.push(`${name} set up on the page by offtag.js's module host; it runs the rule in the worker`);
    return spec;
  }

  /** The rule was imported (`keep`) or not: its extensions' events are set up on the page or forgotten. */
  commitEvents(keep: boolean): void {
    if (keep) this.extensionEvents.push(...this.pendingEvents);
    this.pendingEvents = [];
  }
}

/** The `src` of each `<script src>` when an HTML block is only script tags; undefined otherwise. */
function scriptSources(html: string): string[] | undefined {
  const tags = [...html.matchAll(/<script\b[^>]*\bsrc=["']([^"']+)["'][^>]*>\s*<\/script>/gi)];
  return html.replace(/<script\b[^>]*\bsrc=["'][^"']+["'][^>]*>\s*<\/script>/gi, '').trim() === '' ? tags.map((t) => t[1]!) : undefined;
}

/** The name of a rule's part for events of another rule order. */
export const orderSuffix = (order: number) => ` (rule order ${order})`;

/** The runtime's data elements read on the page with each event (src/launch/data-elements.ts). */
const PAGE_ELEMENT = /^launch\.(pageTitle|pageVariable|localStorageItem|domAttribute|pageCustomCode|pageModule)\(/;
/** The runtime's actions that run on the page (src/launch/page-steps.ts). */
const PAGE_STEP = /^launch\.(pageCode|pageHtml|externalCode|moduleAction)\(/;
/** An Analytics action whose custom code (Set Variables' block, doPlugins) runs on the page, as a step (src/launch/analytics.ts). */
const ANALYTICS_PAGE_STEP = /^launch\.(setVariables\(.*, \{"block":\d+|sendBeacon\(.*, true\)$|trackerCode\()/s;

/** A module's name as the library's extension gives it (`Constant`), else its file's. */
function moduleLabel(c: LaunchContainer, modulePath: string): string {
  const m = c.extensions?.[modulePath.split('/')[0]!]?.modules?.[modulePath];
  return m?.displayName ?? modulePath.replace(/^.*\/|\.js$/g, '');
}

/** The library's data elements a component names: `%name%` in its settings, `getVar('name')` in its code. */
function namedElements(component: LaunchComponent, c: LaunchContainer): string[] {
  const text = JSON.stringify(component.settings ?? {});
  return Object.keys(c.dataElements ?? {}).filter((n) => text.includes(`%${n}%`) || new RegExp(`getVar\\(\\s*\\\\?['"]${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\\\?['"]`).test(text));
}

/** The data elements read on the page that a rule names (`%name%` in its settings, `getVar('name')` in its code, a Data Element Change event). */
function pageElementsOf(t: Translator, r: LaunchRule): string[] {
  const text = JSON.stringify(r);
  const changes = (r.events ?? []).filter((e) => e.modulePath === CORE + 'events/dataElementChange.js').map((e) => (e.settings as Settings | undefined)?.name);
  return [...t.pageElements].filter((n) => changes.includes(n) || text.includes(`%${n}%`) || new RegExp(`getVar\\(\\s*\\\\?['"]${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\\\?['"]`).test(text));
}

function commonestRoot(c: LaunchContainer): string {
  const counts = new Map<string, number>();
  for (const de of Object.values(c.dataElements ?? {})) {
    if (!de.modulePath.endsWith('/javascriptVariable.js')) continue;
    const root = String((de.settings as Settings | undefined)?.path ?? '').split(/[.[]/)[0]!;
    if (root && !['window', 'document', 'navigator', 'location'].includes(root)) counts.set(root, (counts.get(root) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'digitalData';
}

function indent(text: string, pad: string): string {
  return text.split('\n').join('\n' + pad);
}

function translateRule(t: Translator, r: LaunchRule): { item: ReportItem; code: Array<{ order: number; text: string }> } {
  const notes: string[] = [];
  let dropped = 0;
  let onPage = 0;
  try {
    // The engine's rules have one order each: a rule whose events have several becomes one rule per order.
    const byOrder = new Map<number, string[]>();
    for (const e of r.events ?? []) {
      const order = e.ruleOrder ?? 50;
      byOrder.set(order, [...(byOrder.get(order) ?? []), t.event(e, notes, r.name)]);
    }
    if (!byOrder.size) skip('it has no event');
    const conditions = (r.conditions ?? []).map((c, i) => {
      try {
        return t.condition(c, []);
      } catch (err) {
        if (err instanceof Skip) err.message = `condition ${i + 1}: ${err.message}`;
        throw err;
      }
    });
    const actions: string[] = [];
    t.ruleSetupOnPage = false;
    (r.actions ?? []).forEach((a, i) => {
      const own: string[] = [];
      try {
        const code = t.action(a, own);
        actions.push(code);
        if (PAGE_STEP.test(code) || ANALYTICS_PAGE_STEP.test(code)) onPage++;
        if (own.length) notes.push(`action ${i + 1}: ${own.join(', ')}`);
        if (own.some((n) => n.startsWith(SV_CODE_DROPPED))) dropped++;
      } catch (err) {
        if (!(err instanceof Skip)) throw err;
        dropped++;
        notes.push(`action ${i + 1} not imported: ${err.message}`);
      }
    });
    if (!actions.length && dropped) skip(`no action could be imported (${notes.join('; ')})`);
    // Rule names are unique in a container: the parts of a rule with several orders after the
    // first are named with their order.
    const code = [...byOrder].map(
      ([order, events], part) => ({
        order,
        text: `launch.rule({\n  name: ${q(part ? `${r.name}${orderSuffix(order)}` : r.name)},\n  order: ${order},\n  events: [${events.join(', ')}],\n  conditions: [${conditions.map((c) => '\n    ' + c).join(',')}${conditions.length ? '\n  ' : ''}],\n  actions: [${actions.map((a) => '\n    ' + indent(a, '    ')).join(',')}${actions.length ? '\n  ' : ''}],\n})`,
      }),
    );
    if (byOrder.size > 1) notes.push(`its events have ${byOrder.size} rule orders: one rule per order, the others named "${r.name}${orderSuffix(0).replace('0', 'N')}"`);
    const pageConditions = conditions.filter((c) => /^launch\.page(Module)?Condition\(/.test(c)).length;
    const pageEvents = [...byOrder.values()].flat().filter((e) => /^launch\.(extensionEvent|customCodeEvent)\(/.test(e)).length;
    const reads = pageElementsOf(t, r);
    if (reads.length) notes.push(`reads ${reads.map((n) => q(n)).join(', ')}, read on the page with each event`);
    if (t.ruleSetupOnPage) notes.push('the Analytics customSetup runs on the page when an Analytics action of this rule makes the tracker');
    const onThePage = [pageEvents ? `${pageEvents} event(s) set up on the page` : '', pageConditions ? `${pageConditions} condition(s) read on the page` : '', onPage ? `${onPage} action(s) on the page` : ''].filter(Boolean);
    notes.unshift(`${r.events!.length - pageEvents} event(s), ${conditions.length - pageConditions} condition(s) and ${actions.length - onPage} action(s) in the worker${onThePage.map((x) => ', ' + x).join('')}`);
    t.commitEvents(true);
    return { item: { kind: 'rule', name: r.name, where: onPage || pageConditions || pageEvents || reads.length || t.ruleSetupOnPage || notes.some((n) => n.includes(PAGE_GLOBAL_NOTE)) ? 'page' : 'worker', notes, dropped }, code };
  } catch (err) {
    if (!(err instanceof Skip)) throw err;
    t.commitEvents(false);
    return { item: { kind: 'rule', name: r.name, where: 'not imported', notes: [err.message], dropped: 0 }, code: [] };
  }
}

/**
 * The Analytics extension's settings for the runtime (src/launch/analytics.ts): its global tracker
 * properties as written (tokens expanded when the tracker is made), its `customSetup` in the worker
 * when it can run there, and the report suites, tracking server, currency and consent cookie as
 * the container's settings (the engine's beacon builder and automatic link tracking read them).
 */
function analyticsOptions(t: Translator, extras: string[], settings: Record<string, unknown>): string {
  const a = t.c.extensions?.['adobe-analytics']?.settings as Settings | undefined;
  if (!a) return '{}';
  // The beacon path's marker, as the extension makes it from turbine's build date (`JS-2.27.0-LDQM`).
  try {
    if (typeof t.c.buildInfo?.turbineBuildDate === 'string') settings.tagContainerMarker = tagContainerMarker(t.c.buildInfo.turbineBuildDate);
  } catch {
    /* a build date that is no date: the engine's own marker */
  }
  const lib = a.libraryCode as Settings | undefined;
  const accounts = lib?.accounts as Record<string, string[]> | undefined;
  if (accounts) settings.reportSuites = Object.fromEntries(Object.entries(accounts).map(([env, rs]) => [env, (rs ?? []).join(',')]));
  const tp = (a.trackerProperties ?? {}) as Settings;
  if (typeof tp.trackingServer === 'string') settings.trackingServer = tp.trackingServer;
  // AppMeasurement sends to trackingServerSecure on a secure page (a data element token is left to the page's offtagConfig).
  if (typeof tp.trackingServerSecure === 'string' && tp.trackingServerSecure && !tp.trackingServerSecure.includes('%')) settings.trackingServerSecure = tp.trackingServerSecure;
  if (a.euComplianceEnabled === true && typeof a.trackingCookieName === 'string') settings.trackingConsentCookie = a.trackingCookieName;
  else settings.trackingConsentCookie = '';
  // A currency from a data element reaches the beacon through the tracker (`s.currencyCode`); the setting is for automatic link tracking's hits.
  if (typeof tp.currencyCode === 'string' && !tp.currencyCode.includes('%')) settings.currency = tp.currencyCode;
  const aam = (a.moduleProperties as Settings | undefined)?.audienceManager as Settings | undefined;
  const setup = a.customSetup as Settings | undefined;
  const parts = [`trackerProperties: ${q(tp)}`];
  // The extension turns the forwarding on only when the library names its company's org (isAudienceManagementEnabled).
  const companyOrg = (t.c.company as { orgId?: unknown } | undefined)?.orgId;
  if (aam?.config && typeof aam.config === 'object' && typeof companyOrg === 'string' && companyOrg) {
    if (t.c.extensions?.['adobe-mcid']) {
      parts.push(`audienceManager: ${q({ ...(aam.config as Settings), visitorService: { namespace: companyOrg } })}`);
      extras.push(
        "note: Analytics Audience Manager forwarding (the extension's AudienceManagement module): Offtag's beacons carry it as AppMeasurement's do (path /10/, callback=…doPostbacks, et=1, the d. parameters), and Audience Manager gets them; its answer to each beacon (URL destinations, cookie destinations, its uuid cookie), which AppMeasurement runs on the page, does not come back to the page",
      );
    } else
      extras.push(
        "Analytics Audience Manager forwarding (the extension's AudienceManagement module) not imported: it needs the Experience Cloud ID Service extension, which the library does not have (turbine's tracker fails to set it up); Offtag's beacons leave without it (path /1/, no callback, et or d. parameters)",
      );
  }
  if (lib?.scopeTrackerGlobally === true) parts.push('scopeTrackerGlobally: true');
  if (setup?.loadPhase === 'beforeSettings') parts.push("customSetupPhase: 'beforeSettings'");
  if (isCode(setup?.source) && t.setupPlacement) {
    const p = t.setupPlacement;
    if (p.where === 'worker') {
      t.analyticsBlocks.worker++;
      p.sessionKeys.forEach((k) => t.sessionKeys.add(k));
      const setupNotes: string[] = [];
      t.usePageGlobals(p, setupNotes);
      if (p.readsDataLayer) t.useDataLayer(p.dataLayerPaths ?? true);
      if (setupNotes.length) extras.push(`note: Analytics customSetup in the worker ${setupNotes[0]}`);
      parts.push(`customSetup: ${indent(workerFactory(p), '  ')}`);
    } else {
      t.analyticsBlocks.page++;
      parts.push("onPage: 'setup'");
      const names = t.stepValues(t.setupCode ?? '');
      if (names.length) parts.push(`pageValues: ${q(names)}`);
      extras.push(`note: Analytics customSetup on the page because ${p.reason}: it runs there when the first Analytics action makes the tracker, and its doPlugins at each beacon, each as a step of its rule with the worker's s; their writes to s are replayed in the worker`);
    }
  }
  return `{\n  ${parts.join(',\n  ')},\n}`;
}

/**
 * The ECID extension's variables (VisitorAPI configuration): those the engine's visitor service
 * takes (src/launch `ECID_VARIABLES`) go to the ECID rule as written, `%data element%` tokens and
 * all, and are expanded on the first event; each other one is named with its reason.
 */
/** The ECID extension's opt-in settings, for launch.ecidRule; an opt-in decided by a callback is said, not imported. */
function ecidOptInSettings(s: Settings, out: string[]): Record<string, unknown> | undefined {
  if (!s.doesOptInApply) return undefined;
  if (typeof s.doesOptInApply !== 'boolean' && !(typeof s.doesOptInApply === 'string' && /^%[^%]+%$/.test(s.doesOptInApply))) {
    out.push('ECID opt-in not imported: the extension decides whether it applies with a callback (optInCallback), which the engine\'s visitor service does not take; opt-in does not apply');
    return undefined;
  }
  const keys = ['doesOptInApply', 'isOptInStorageEnabled', 'optInCookieDomain', 'optInStorageExpiry', 'timeUnit', 'previousPermissions', 'preOptInApprovals', 'preOptInApprovalInput'];
  return Object.fromEntries(keys.flatMap((k) => (s[k] !== undefined && s[k] !== null && s[k] !== '' ? [[k, s[k]]] : [])));
}

function ecidVariables(variables: Array<{ name: string; value: unknown }>, out: string[]): Array<{ name: string; value: unknown }> {
  const kept: Array<{ name: string; value: unknown }> = [];
  for (const v of variables) {
    if (Object.prototype.hasOwnProperty.call(ECID_VARIABLES, v.name)) kept.push({ name: v.name, value: v.value });
    else out.push(`ECID variable ${v.name} not imported: ${ECID_UNSUPPORTED[v.name.replace(/Secure$/, '')] ?? "the engine's visitor service does not offer it"}`);
  }
  return kept;
}

/** Why a VisitorAPI variable the engine does not take is left out, for the common ones (a `…Secure` variant as its plain one). */
const ECID_UNSUPPORTED: Record<string, string> = {
  marketingCloudServer: "the engine's visitor service sends its ID calls to the container's idServiceHost setting (its Audience Manager server), and makes no call to a marketingCloudServer CNAME",
  audienceManagerServer: "the Audience Manager server is the container's idServiceHost setting; set it there",
  loadTimeout: "the engine's visitor service waits 30 seconds for an ID call, VisitorAPI's default",
};

/** What the imported container's `_satellite` tells of the library (src/launch `imported`). */
function importedFacts(c: LaunchContainer): ImportedFacts {
  const bi = (c.buildInfo ?? {}) as Record<string, unknown>;
  const buildInfo = Object.fromEntries(['turbineVersion', 'turbineBuildDate', 'buildDate', 'minified'].filter((k) => bi[k] !== undefined).map((k) => [k, bi[k]]));
  const p = (c.property ?? {}) as { name?: unknown; id?: unknown };
  const orgId = (c.company as { orgId?: unknown } | undefined)?.orgId;
  const ecidOrg = (c.extensions?.['adobe-mcid']?.settings as { orgId?: unknown } | undefined)?.orgId;
  return {
    buildInfo,
    property: { ...(typeof p.name === 'string' ? { name: p.name } : {}), ...(typeof p.id === 'string' ? { id: p.id } : {}) },
    // turbine's `_satellite.company` is the library's whole company object (orgId, dynamicCdnEnabled…).
    company: { ...(JSON.parse(JSON.stringify(c.company ?? {})) as Record<string, unknown>), ...(typeof orgId === 'string' ? { orgId } : {}) },
    ...(typeof ecidOrg === 'string' ? { visitor: ecidOrg } : {}),
  };
}

export function translate(c: LaunchContainer, o: TranslateOptions): Translation {
  const dataLayer = o.dataLayer ?? commonestRoot(c);
  const t = new Translator(c, o, dataLayer);
  const items: ReportItem[] = [];
  const extras: string[] = [];
  const settings: Record<string, unknown> = { dataLayer };

  const deCode = new Map<string, string>();
  for (const [name, de] of Object.entries(c.dataElements ?? {})) {
    const notes: string[] = [];
    try {
      const code = t.dataElement(name, de, notes);
      // Every item says what it is: at least its module's name.
      if (!notes.length) notes.push(moduleLabel(c, de.modulePath));
      deCode.set(name, `${q(name)}: ${code}`);
      t.imported.add(name);
      const onPage = PAGE_ELEMENT.test(code);
      if (onPage) t.pageElements.add(name);
      items.push({ kind: 'data element', name, where: onPage ? 'page' : 'worker', notes, dropped: 0 });
    } catch (err) {
      if (!(err instanceof Skip)) throw err;
      items.push({ kind: 'data element', name, where: 'not imported', notes: [err.message], dropped: 0 });
    }
  }
  // A data element that reads one that was not imported is not imported either (its value would
  // be that one's, which the container does not have), and so on, to every element that reads it.
  for (let dropped = true; dropped; ) {
    dropped = false;
    for (const item of items) {
      if (item.kind !== 'data element' || item.where === 'not imported') continue;
      const missing = namedElements(c.dataElements![item.name]!, c).find((n) => !t.imported.has(n));
      if (missing === undefined) continue;
      Object.assign(item, { where: 'not imported', notes: [`it reads the data element ${q(missing)}, which is not imported`] });
      t.imported.delete(item.name);
      t.pageElements.delete(item.name);
      deCode.delete(item.name);
      dropped = true;
    }
  }
  const parts: Array<{ order: number; text: string }> = [];
  for (const r of c.rules ?? []) {
    const { item, code } = translateRule(t, r);
    items.push(item);
    parts.push(...code);
  }
  // By rule order (ties in the library's order), as turbine sets its rules up: the engine runs
  // rules by order anyway, and the page triggers' listeners are installed in this order, so rules
  // of one DOM event on one element fire in rule order, as Launch's do.
  const ruleCode = parts.sort((a, b) => a.order - b.order).map((p) => p.text);
  const ps = (c.property?.settings ?? {}) as Settings;
  const notices: string[] = [];
  if (ps.ruleComponentSequencingEnabled === false) notices.push('note: the property runs rule components without sequencing; Offtag runs each rule\'s conditions and actions in the worker in sequence (a component that returns a promise holds the next one), and its steps on the page without holding the rule, as turbine does');
  if (ps.undefinedVarsReturnEmpty === true) notices.push('note: the property returns "" for data elements that do not exist; Offtag leaves an unknown %token% as written');
  const extensionLines: string[] = [];
  const dlm = c.extensions?.[DLM];
  if (dlm && ((dlm.settings as Settings | undefined)?.clickEvents as Settings | undefined)?.enabled === true)
    extras.push(`extension ${q(dlm.displayName)}: its click events (clickEvents) are not imported; its data layer push events and Context Aware data elements are`);
  const page = pageSideOf(t, extras, extensionLines);
  const analytics = analyticsOptions(t, extras, settings);
  // The page-side s of Analytics custom code run on the page, installed by the first page read (once), with the customSetup and the Set Variables blocks that run there.
  if (t.setupPlacement?.where === 'page' || t.analyticsPageBlocks.length) {
    const setup = t.setupPlacement?.where === 'page' ? t.setupCode! : 'undefined';
    const install = `function () {\n  (${installPageAnalytics.toString()})();\n  var a = window.__offtagAnalytics;\n  if (!a.blocks) a.define(${setup}, [${t.analyticsPageBlocks.join(', ')}]);\n}`;
    const rest = [...deCode];
    deCode.clear();
    for (const [k, v] of [['offtag:analytics page', `${q('offtag:analytics page')}: launch.pageCustomCode(${q(install)})`], ...rest]) deCode.set(k, v);
  }
  // The page globals worker blocks read as data, each read on the page with every event (src/launch virtual-page.ts `pageGlobalElement`).
  for (const [g, paths] of t.pageGlobals)
    deCode.set(`offtag:global ${g}`, `${q(`offtag:global ${g}`)}: ${paths ? `launch.pageGlobalBranches(${q(g)}, ${q([...paths].sort())})` : `launch.pageVariable(${q(g)})`}`);
  if (t.blockReads === null || t.blockReads.size) deCode.set(BLOCK_READS, `${q(BLOCK_READS)}: launch.dataLayerReads(${t.blockReads ? q([...t.blockReads].sort()) : ''})`);
  const ecidSettings = c.extensions?.['adobe-mcid']?.settings as Settings | undefined;
  if (typeof ecidSettings?.orgId === 'string') settings.orgId = ecidSettings.orgId;
  const ecidVars = ecidVariables((ecidSettings?.variables ?? []) as Array<{ name: string; value: unknown }>, extras);
  const ecidOptIn = ecidOptInSettings(ecidSettings ?? {}, extras);

  const ecid = Boolean(c.extensions?.['adobe-mcid']);
  const source = `// @ts-nocheck -- the custom code blocks below are the library's own JavaScript, kept as written.
/**
 * Imported by \`offtag import\` from a Launch library (property ${q(c.property?.name ?? '')}, turbine ${String(c.buildInfo?.turbineVersion ?? '?')}).
 * It runs in the worker, except what report.txt (beside this file) says runs on the page: offtag build writes
 * that into offtag.js as the library's own code. What could not be imported is listed there too.
 */
import { adobeServices, defineContainer } from ${q(o.root ? o.root + '/src/container/index.ts' : 'offtag/container')};
import * as launch from ${q(o.root ? o.root + '/src/launch/index.ts' : 'offtag/launch')};

const analytics: launch.AnalyticsOptions = ${indent(analytics, '')};

// Its _satellite is turbine's: the library's build info, property and company below.
export const container = launch.imported(defineContainer({
  name: ${q(o.name)},${typeof c.buildInfo?.buildDate === 'string' ? `\n  // The Launch library's build date.\n  buildDate: ${q(c.buildInfo.buildDate)},` : ''}
  // From the Analytics and Experience Cloud ID Service extensions' settings; a page overrides them with window.offtagConfig.
  settings: ${indent(JSON.stringify(settings, null, 2), '  ')},
  sessionKeys: ${q([...t.sessionKeys])},
  services: ${t.pageSteps ? 'launch.withPage(launch.launchServices())' : 'launch.launchServices()'},${page ? `
  // The library's other extensions, run on the page by offtag.js's module host: offtag build writes their modules into offtag.js.
  page: ${indent(page, '  ')},` : ''}
  dataElements: launch.dataElements({
${[...deCode.values()].map((d) => '    ' + indent(d, '    ')).join(',\n')}
  }),
  rules: () => [${ecid ? '\n    // The Experience Cloud ID Service extension starts with the library, before every rule.\n    launch.ecidRule(' + (ecidVars.length || ecidOptIn ? q(ecidVars) : '') + (ecidOptIn ? ', ' + q(ecidOptIn) : '') + '),' : ''}${t.visitorTracking ? "\n    // Core's visitor tracking counts this page view when the library loads, before every rule.\n    launch.visitorTrackingRule()," : ''}
${ruleCode.map((r) => '    ' + indent(r, '    ')).join(',\n')}
  ],
}), ${indent(JSON.stringify(importedFacts(c), null, 2), '')});

export default container;
`;
  return {
    source,
    items,
    extras,
    notices,
    warnings: o.warnings ?? [],
    extensions: extensionLines,
    missingAssets: t.missingAssets,
    dataLayer,
    sessionKeys: [...t.sessionKeys],
    settings,
  };
}

/**
 * The library's other extensions as the container's `page` (src/worker-engine/core/page-reads.ts
 * `PageSide`): every module of each extension offtag.js's module host runs (turbine runs them all
 * at load), as source text, and the extensions' events of the imported rules, in rule order. The
 * report's lines for the extensions go to `extras` (not imported) and `lines` (run on the page,
 * or nothing to run). Undefined when no extension is hosted.
 */
function pageSideOf(t: Translator, extras: string[], lines: string[]): string | undefined {
  const c = t.c;
  const extensions: PageSide['extensions'] = {};
  for (const [key, ext] of Object.entries(c.extensions ?? {})) {
    if (NATIVE.has(key)) continue;
    const modules = Object.entries(ext.modules ?? {}).filter(([, m]) => isCode(m.script));
    if (key === WEB_SDK) extras.push(`extension ${q(ext.displayName)} (${key}) not imported: the Adobe Experience Platform Web SDK (alloy) is not imported in this version; its events, actions and other data elements are left out (its XDM object and identity map data elements are imported)`);
    else if (ANALYTICS_COMPANIONS.has(key) && !readsOnly(ext)) extras.push(`extension ${q(ext.displayName)} (${key}) not imported: it works on the Analytics tracker (s), which the Analytics import runs`);
    else if (!modules.length) lines.push(`extension ${q(ext.displayName)} (${key}): nothing to run — the library holds no module of it (turbine runs none either)`);
    else {
      t.hostedExtensions.add(key);
      extensions[key] = {
        displayName: ext.displayName,
        ...(ext.settings !== undefined ? { settings: functionsMarked(ext.settings) } : {}),
        ...(ext.hostedLibFilesBaseUrl ? { hostedLibFilesBaseUrl: ext.hostedLibFilesBaseUrl } : {}),
        modules: Object.fromEntries(modules.map(([path, m]) => [path, { script: (m.script as { code: string }).code, ...(m.name !== undefined ? { name: m.name } : {}), ...(m.shared ? { shared: true } : {}) }])),
      };
      lines.push(`extension ${q(ext.displayName)} (${key}): on the page — offtag.js's module host runs its ${modules.length} module(s) as turbine does`);
    }
  }
  if (!Object.keys(extensions).length) return undefined;
  const page: PageSide = {
    extensions,
    info: {
      buildInfo: c.buildInfo,
      environment: c.environment,
      property: { ...(c.property?.name !== undefined ? { name: c.property.name } : {}), ...((c.property as { id?: string } | undefined)?.id !== undefined ? { id: (c.property as { id?: string }).id } : {}) },
      propertySettings: c.property?.settings ?? {},
      company: c.company,
    },
    // Turbine sets the events up in rule order (ties in the library's order).
    events: [...t.extensionEvents].sort((a, b) => a.order - b.order).map(({ order: _order, ...e }) => ({ ...e, settings: functionsMarked(e.settings as LaunchValue) })),
    dataElements: Object.keys(c.dataElements ?? {}),
  };
  return JSON.stringify(page, null, 2);
}

/** Functions in a library's settings, marked for offtag build to write as functions (`{"offtag:function": source}`). */
function functionsMarked(v: LaunchValue): unknown {
  if (isCode(v)) return { [FUNCTION_MARK]: v.code };
  if (Array.isArray(v)) return v.map(functionsMarked);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, functionsMarked(x)]));
  return v;
}

/** The report's label for an item: data elements `worker` / `on the page`, rules `in the worker` / `partly on the page`, both `not imported`. */
export function label(i: ReportItem): string {
  if (i.where === 'not imported') return 'not imported';
  if (i.kind === 'rule') return i.where === 'page' ? 'partly on the page' : 'in the worker';
  return i.where === 'page' ? 'on the page' : 'worker';
}

/** The report: every data element and rule once with its label and reason, then the other items, the extensions, the notes, and the one-line summary of those labels. */
export function reportText(tr: Translation): string[] {
  const lines = tr.warnings.map((w) => `warning: ${w}`);
  lines.push(...tr.items.map((i) => `${i.kind} ${q(i.name)}: ${label(i)}${i.notes.length ? ' — ' + i.notes.join('; ') : ''}`));
  lines.push(...tr.extras);
  lines.push(...tr.extensions);
  lines.push(...tr.notices);
  lines.push(summaryLine(tr));
  return lines;
}

/**
 * One line whose counts are the report's own labels: data elements and rules by label, the
 * actions of imported rules that were left out (each named in its rule's line), and the other
 * items not imported (extensions, settings: each a line of the report).
 */
export function summaryLine(tr: Translation): string {
  const count = (kind: ReportItem['kind'], l: string) => tr.items.filter((i) => i.kind === kind && label(i) === l).length;
  const actions = tr.items.reduce((n, i) => n + (i.where === 'not imported' ? 0 : i.dropped), 0);
  return (
    `data elements: ${count('data element', 'worker')} worker, ${count('data element', 'on the page')} on the page, ${count('data element', 'not imported')} not imported; ` +
    `rules: ${count('rule', 'in the worker')} in the worker, ${count('rule', 'partly on the page')} partly on the page, ${count('rule', 'not imported')} not imported; ` +
    `${actions} actions not imported; ${tr.extras.length} other items not imported.`
  );
}

/**
 * `offtag/container`: the public authoring API. A container is one `defineContainer({...})`
 * module (docs/containers.md); `offtag build --container <file>` turns it into a library.
 */
export { defineContainer, sessionKeysOf } from './define.ts';
export type { ActionDef, ConditionDef, ContainerBase, ContainerDef, ContainerSettings, Ctx, DefinedContainer, Kit, OwnSettings, RuleDef, ServicesDef, SettingsDef } from './define.ts';
export { constant, cookie, dataLayer, domAttribute, elements, fn, fromEvent, localStorage, lookupTable, pageCode, pageTitle, pageVariable, queryString, regexTable, sessionStorage, storedKey } from './data-elements.ts';
export type { Elements, ElementCtx, Finish, PageEvent, RegexTableOptions, StorageDuration } from './data-elements.ts';
export type { Operator } from '../launch/conditions.ts';
export type { PageRead } from '../worker-engine/core/page-reads.ts';
export { evaluateVariables, linkHit, pageViewHit, send, DEFAULT_LINK_NAME, CUSTOM_LINK_TYPE } from './analytics.ts';
export type { LinkOptions, VariableMap } from './analytics.ts';
export { adobeServices } from './services.ts';
export type { CheckedMap, CheckedText, EventToken, UnknownToken } from './tokens.ts';
export { tokensIn } from './tokens.ts';
export type { RuleEventSpec, DataElement, Container } from '../worker-engine/core/types.ts';
export type { Settings, Environment } from '../worker-engine/core/settings.ts';
export type { AnalyticsHit, Services, AnalyticsService, VisitorService } from '../worker-engine/services.ts';

import { type ComponentInstance, type EmailContent, nullBranch } from '../content/types.ts';

/** What the editor edits: an email's content and the locales it is written in. */
export interface EditorDocument {
  content: EmailContent;
  locales: string[];
  defaultLocale: string;
}

/**
 * A command that cannot apply to the document it was given (an unknown instance id, a locale
 * the email does not have, a branch the instance does not use). The editor turns it into a
 * refusal; other callers may let it surface, since it means the caller's view is stale.
 */
export class InvalidCommandError extends Error {
  override name = 'InvalidCommandError';
}

export function invalid(message: string): never {
  throw new InvalidCommandError(message);
}

/** Where an instance sits: the container, or a position in the body. */
export type InstanceLocation = { kind: 'container' } | { kind: 'body'; index: number };

export function locateInstance(content: EmailContent, instanceId: string): InstanceLocation {
  if (content.container_component_instance.id === instanceId) return { kind: 'container' };
  const index = content.component_instances.findIndex((instance) => instance.id === instanceId);
  if (index === -1) invalid(`No component instance has the id ${instanceId}.`);
  return { kind: 'body', index };
}

/** The body position of an instance; the container has none, so commands about order refuse it. */
export function bodyIndexOf(content: EmailContent, instanceId: string, action: string): number {
  const location = locateInstance(content, instanceId);
  if (location.kind === 'container') invalid(`The container cannot be ${action}.`);
  return location.index;
}

/**
 * Whether two documents hold the same email, however they were built: key order is ignored
 * (PostgreSQL's jsonb sorts keys) and an `undefined` property counts as absent, as in JSON.
 */
export function sameDocument(left: EditorDocument, right: EditorDocument): boolean {
  return left === right || sameJsonValue(left, right);
}

/** Whether two JSON values are equal, ignoring key order and treating `undefined` properties as absent. */
export function sameJsonValue(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => sameJsonValue(item, right[index]));
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  const definedKeys = (record: Record<string, unknown>) =>
    Object.keys(record).filter((key) => record[key] !== undefined);
  const leftKeys = definedKeys(leftRecord);
  if (leftKeys.length !== definedKeys(rightRecord).length) return false;
  return leftKeys.every((key) => key in rightRecord && sameJsonValue(leftRecord[key], rightRecord[key]));
}

export function findInstance(content: EmailContent, instanceId: string): ComponentInstance {
  const location = locateInstance(content, instanceId);
  if (location.kind === 'container') return content.container_component_instance;
  return content.component_instances[location.index] as ComponentInstance;
}

export function isInstanceIdTaken(content: EmailContent, instanceId: string): boolean {
  return (
    content.container_component_instance.id === instanceId ||
    content.component_instances.some((instance) => instance.id === instanceId)
  );
}

/**
 * The document with one instance replaced by `update(instance)`. Returns the same document when
 * the update returns the same instance, so a command that changes nothing records no history.
 */
export function updateInstance(
  document: EditorDocument,
  instanceId: string,
  update: (instance: ComponentInstance) => ComponentInstance,
): EditorDocument {
  const { content } = document;
  const location = locateInstance(content, instanceId);
  if (location.kind === 'container') {
    const container = update(content.container_component_instance);
    if (container === content.container_component_instance) return document;
    return withContent(document, { ...content, container_component_instance: container });
  }
  const current = content.component_instances[location.index] as ComponentInstance;
  const updated = update(current);
  if (updated === current) return document;
  const component_instances = content.component_instances.with(location.index, updated);
  return withContent(document, { ...content, component_instances });
}

/** Every instance, the container first: for commands that touch all of them (locales). */
export function updateEveryInstance(
  content: EmailContent,
  update: (instance: ComponentInstance) => ComponentInstance,
): EmailContent {
  const container = update(content.container_component_instance);
  const instances = content.component_instances.map(update);
  const unchanged =
    container === content.container_component_instance &&
    instances.every((instance, index) => instance === content.component_instances[index]);
  if (unchanged) return content;
  return { ...content, container_component_instance: container, component_instances: instances };
}

export function withContent(document: EditorDocument, content: EmailContent): EditorDocument {
  return { ...document, content };
}

export function requireLocale(document: EditorDocument, locale: string): void {
  if (!document.locales.includes(locale)) invalid(`The email has no locale ${locale}.`);
}

/**
 * Content without a conditional lives under `null_branch`; content with one lives under that
 * conditional's branch keys. Writing to the other kind would store a value nothing ever reads.
 */
export function requireBranchFor(conditionalId: number | null | undefined, branch: string): void {
  const hasConditional = conditionalId !== null && conditionalId !== undefined;
  if (!hasConditional && branch !== nullBranch) {
    invalid(`Content without a conditional only has the branch ${nullBranch}, not ${branch}.`);
  }
  if (hasConditional && branch === nullBranch) {
    invalid(`Content with conditional ${conditionalId} has no ${nullBranch}; name one of its branches.`);
  }
}

/** A record with one key set, or removed when `value` is undefined; the same record when unchanged. */
export function withEntry<T>(
  record: Readonly<Record<string, T>>,
  key: string,
  value: T | undefined,
): Record<string, T> {
  if (value === undefined) {
    if (!(key in record)) return record;
    const { [key]: _removed, ...rest } = record;
    return rest;
  }
  if (record[key] === value) return record;
  return { ...record, [key]: value };
}

/**
 * `owner` with an optional record property set, or without the property once the record is
 * empty, so stored content does not fill up with `{}` left behind by removals.
 */
export function withRecordOrNone<Owner extends object, Key extends keyof Owner & string>(
  owner: Owner,
  key: Key,
  record: Record<string, unknown>,
): Owner {
  if (Object.keys(record).length > 0) return { ...owner, [key]: record };
  const { [key]: _removed, ...rest } = owner;
  return rest as Owner;
}

import type { PermissionKey } from '../permissions.ts';
import type { BranchedText, ComponentInstance, EmailContent } from './types.ts';

/** What an email's editable state is made of, for comparing a change against its original. */
export interface EmailState {
  content: EmailContent;
  locales: readonly string[];
}

/**
 * The permission keys a change needs, found by comparing before and after: changing values needs
 * `update_emails`; adding, removing or reordering instances needs
 * `add_remove_reorder_email_components`; attaching or detaching a conditional needs
 * `add_remove_conditional_from_components`; adding or removing locales needs
 * `add_remove_locales_from_emails`. The server checks a whole PATCH with this, so a client cannot
 * smuggle a structural change inside a value edit.
 */
export function permissionsForContentChange(before: EmailState, after: EmailState): Set<PermissionKey> {
  const needed = new Set<PermissionKey>();
  if (!sameSet(before.locales, after.locales)) needed.add('add_remove_locales_from_emails');

  const beforeIds = before.content.component_instances.map((instance) => instance.id);
  const afterIds = after.content.component_instances.map((instance) => instance.id);
  if (!sameOrder(beforeIds, afterIds)) needed.add('add_remove_reorder_email_components');

  const beforeById = new Map(before.content.component_instances.map((instance) => [instance.id, instance]));
  const pairs: [BranchedText | ComponentInstance | undefined, BranchedText | ComponentInstance][] = [
    [before.content.subject, after.content.subject],
    [before.content.preheader, after.content.preheader],
    [before.content.container_component_instance, after.content.container_component_instance],
    ...after.content.component_instances.map(
      (instance) =>
        [beforeById.get(instance.id), instance] as [ComponentInstance | undefined, ComponentInstance],
    ),
  ];
  for (const [old, current] of pairs) {
    // A new instance arrives with its conditional: adding it is the structural change already counted.
    if (old === undefined) continue;
    if ((old.conditional_id ?? null) !== (current.conditional_id ?? null)) {
      needed.add('add_remove_conditional_from_components');
    }
  }

  if (!valuesEqual(withoutStructure(before.content), withoutStructure(after.content))) {
    needed.add('update_emails');
  }
  return needed;
}

/** Content reduced to its values: instances keyed by id (order and membership are structure). */
function withoutStructure(content: EmailContent) {
  const unchangedShape = (instance: ComponentInstance) => ({
    name: instance.name ?? null,
    component_id: instance.component_id,
    field_values: instance.field_values,
    hidden_from_locales: instance.hidden_from_locales ?? {},
  });
  return {
    subject: content.subject.branch_content,
    preheader: content.preheader.branch_content,
    container: unchangedShape(content.container_component_instance),
    instances: Object.fromEntries(
      content.component_instances.map((instance) => [instance.id, unchangedShape(instance)]),
    ),
    global_link_tracking_parameters: content.global_link_tracking_parameters ?? {},
  };
}

function sameSet(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((item) => right.includes(item));
}

function sameOrder(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((item, index) => right[index] === item);
}

/** Deep equality for JSON values, where key order does not matter. */
export function valuesEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => valuesEqual(item, right[index]));
  }
  const leftKeys = Object.keys(left);
  const rightRecord = right as Record<string, unknown>;
  if (leftKeys.length !== Object.keys(rightRecord).length) return false;
  return leftKeys.every(
    (key) =>
      Object.hasOwn(rightRecord, key) &&
      valuesEqual((left as Record<string, unknown>)[key], rightRecord[key]),
  );
}

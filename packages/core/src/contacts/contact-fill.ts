import type { Contact, CustomFieldValues } from './contact.js';

/** What a write brings to a contact: absent fields are not touched. */
export interface ContactWrite {
  name?: string | null;
  email?: string | null;
  customFields?: CustomFieldValues;
}

/** How a write meets an existing contact: `fill` writes only empty fields, `overwrite` every field given. */
export type ContactWriteMode = 'fill' | 'overwrite';

/** A write applied to a contact: the result and which fields (`name`, `email`, `custom_fields.<key>`) were written or kept. */
export interface ContactWriteResult {
  contact: Contact;
  /** Fields written. */
  filled: string[];
  /** Fields given but left as they were (fill mode: they already had a value). */
  kept: string[];
  changed: boolean;
}

const isEmpty = (value: unknown) => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Applies `write` to `existing`. In `fill` mode (POST /v1/contacts, imports by default) a field
 * is written only when it is empty; in `overwrite` mode every non-empty value given replaces the
 * stored one. Empty values given are ignored in both (neither mode erases).
 */
export function applyContactWrite(existing: Contact, write: ContactWrite, mode: ContactWriteMode, now: Date): ContactWriteResult {
  const contact: Contact = { ...existing, customFields: { ...existing.customFields } };
  const filled: string[] = [];
  const kept: string[] = [];
  const consider = (field: string, current: unknown, given: unknown, set: (v: unknown) => void) => {
    if (given === undefined || isEmpty(given)) return;
    if (mode === 'fill' && !isEmpty(current)) {
      kept.push(field);
      return;
    }
    if (same(current, given)) {
      kept.push(field);
      return;
    }
    set(given);
    filled.push(field);
  };
  consider('name', existing.name, write.name?.trim(), (v) => (contact.name = v as string));
  consider('email', existing.email, write.email?.trim(), (v) => (contact.email = v as string));
  for (const [key, value] of Object.entries(write.customFields ?? {})) {
    consider(`custom_fields.${key}`, existing.customFields[key], value, (v) => (contact.customFields[key] = v));
  }
  const changed = filled.length > 0;
  if (changed) contact.updatedAt = now;
  return { contact, filled, kept, changed };
}

/** The fields a new contact was created with (the `filled` of a creation). */
export function fieldsOf(contact: Contact): string[] {
  const fields: string[] = [];
  if (contact.name) fields.push('name');
  if (contact.email) fields.push('email');
  for (const key of Object.keys(contact.customFields)) fields.push(`custom_fields.${key}`);
  return fields;
}

/**
 * PATCH semantics: each field given replaces the stored one; `null` clears it (for custom
 * fields, removes the key).
 */
export function patchContact(existing: Contact, patch: ContactWrite, now: Date): { contact: Contact; changed: boolean } {
  const contact: Contact = { ...existing, customFields: { ...existing.customFields } };
  if (patch.name !== undefined) contact.name = patch.name?.trim() ? patch.name.trim() : null;
  if (patch.email !== undefined) contact.email = patch.email?.trim() ? patch.email.trim() : null;
  for (const [key, value] of Object.entries(patch.customFields ?? {})) {
    if (value === null) delete contact.customFields[key];
    else contact.customFields[key] = value;
  }
  const changed = contact.name !== existing.name || contact.email !== existing.email || !same(contact.customFields, existing.customFields);
  if (changed) contact.updatedAt = now;
  return { contact, changed };
}

/** What a merge survivor takes from the contact merged into it: its empty fields filled. */
export function mergeContactFields(survivor: Contact, merged: Contact, now: Date): Contact {
  return applyContactWrite(survivor, { name: merged.name, email: merged.email, customFields: merged.customFields }, 'fill', now).contact;
}

import { z } from "zod";
import { AssignParentBody, CreateEntityBody, EditEntityBody, EntityIdBody } from "../../../platform/contract/entities.shapes.ts";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { requestForm } from "../../lib/form-fields.server.ts";

/*
 * One schema per form of the Entities screen (spec 2 §5, spec 3 §5): each is its call's request
 * schema (platform/contract/entities.shapes.ts). The requests are strict objects (an unknown field
 * is a 422); a form also posts its intent and CSRF token, so a form takes the request's fields
 * (`.shape`) in a plain object. Server-only: the dialogs get their constraints from the loader.
 */

export const CreateEntitySchema = requestForm(z.object({ ...CreateEntityBody.shape }));

export const EditEntitySchema = requestForm(z.object({ ...EditEntityBody.shape }));

/**
 * '' ('None') makes the entity top-level. The request requires the field ('' allowed); the form's
 * select must not carry `required`, or the browser would refuse 'None' (an empty first option).
 */
export const AssignParentSchema = requestForm(z.object({ ...AssignParentBody.shape, parent_entity_name: AssignParentBody.shape.parent_entity_name.default("") }));

/** Delete: the typed phrase must be the entity id (spec 2 §4/§5, spec 3 §5). */
export const deleteSchema = (entityId: string) => confirmPhraseSchema(entityId, EntityIdBody.shape);

/** The forms' HTML constraints, from the schemas (the loader hands them to the dialogs: useConstraint). */
export const constraints = formConstraints({ add: CreateEntitySchema, edit: EditEntitySchema, assign: AssignParentSchema });

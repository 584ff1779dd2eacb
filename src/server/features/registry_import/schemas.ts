/** Request shapes of the registry import (docs/directory_import.md). */
import { z } from "zod";
import { MAX_REASON_LENGTH } from "../../../domain/approval.ts";
import { optionalText } from "../../http/validation.ts";

/** An uploaded file's name as the browser gives it, kept for people to recognise the import. */
export const MAX_IMPORT_FILE_NAME_LENGTH = 255;

/** The body of both POSTs: the CSV itself, as text/csv. */
export const IMPORT_CONTENT_TYPE = "text/csv";

/** The file travels as the body, so the maker's reason and the file's name travel in the query. */
export const submitQuery = z.object({
  fileName: optionalText(MAX_IMPORT_FILE_NAME_LENGTH),
  requestReason: optionalText(MAX_REASON_LENGTH),
});

export const importIdParam = z.object({ id: z.uuid("Invalid import id") });

/** The stored four-eyes payload: the import by id, and the file's hash it was submitted with. */
export const registryImportPayload = z.object({
  importId: z.uuid(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

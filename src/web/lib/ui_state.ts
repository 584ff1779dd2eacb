/** App-wide UI state that more than one screen drives. */
import { atom } from "jotai";

/** The New Institution dialog opens from the header, the dashboard and the institutions screen. */
export const newInstitutionDialogOpenAtom = atom(false);

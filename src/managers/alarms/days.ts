/** The days an alarm repeats on, Monday first. Free of imports: the web app bundles it (the contract pulls zod in). */
export const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** `T` with its readonly properties made writable, for objects built property by property. */
export type Writable<T> = { -readonly [Key in keyof T]: T[Key] };

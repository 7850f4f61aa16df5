/** Typed keys for `t()`: a key missing from ./en.ts fails the type check. */
import 'i18next';
import type { Strings } from './en';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Strings };
  }
}

import { mixed, object, string, type InferType } from 'yup';
import { isScope } from './scopes.rules.js';

/**
 * The OAuth form bodies (the reference's "Generate OAuth 2.0 Token", "Introspect OAuth 2.0
 * Token"), validated with `parse(schema, body, 'form')`: the reference answers each problem
 * with its own key, so each test is named by its catalogue key (a `required` field that is
 * missing is `missing_parameters`).
 */
export const scopeNames = (scope: string): string[] => [...new Set(scope.trim().split(/ +/))];

export const tokenRequestSchema = object({
  grant_type: mixed<'client_credentials'>().test(
    'invalid_grant_type',
    'grant_type must be client_credentials',
    (v) => v === 'client_credentials',
  ),
  scope: string()
    .typeError('scope must be a string')
    .required('scope is required')
    .test('missing_parameters', 'scope is required', (v) => v.trim() !== '')
    .test(
      'invalid_scope',
      ({ value }) =>
        `Invalid scope ${String(value)}: scopes are names from the documented list, separated by spaces (never commas)`,
      (v) => v.trim() === '' || scopeNames(v).every(isScope),
    ),
});
export type TokenRequest = InferType<typeof tokenRequestSchema>;

/** Introspect and revoke: the token itself. */
export const tokenBodySchema = object({
  access_token: string().typeError('access_token must be a string').required('access_token is required'),
});
export type TokenBody = InferType<typeof tokenBodySchema>;

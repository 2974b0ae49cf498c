/**
 * The token endpoint (reference §10): `/iam/v2beta/oauth2/token`, as the reference's OpenAPI document and
 * guides name it, and `/iam/v2/oauth2/token`, its current name there. Both answer alike.
 */
export const TOKEN_PATH = '/iam/v2beta/oauth2/token'
export const TOKEN_PATH_V2 = '/iam/v2/oauth2/token'

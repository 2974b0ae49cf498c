/**
 * The signed-in person's own session, a singleton under /iam/v2 (the settings namespace, beside users and
 * their access keys). Fastify's route URLs: `::` is a literal colon, the custom methods of the API.
 */
export const SESSION_PATH = '/iam/v2/session'
export const SIGN_OUT_PATH = '/iam/v2/session::signOut'
export const CHANGE_PASSWORD_PATH = '/iam/v2/session/password::change'
export const TOTP_ENROLL_PATH = '/iam/v2/session/totp::enroll'
export const TOTP_CONFIRM_PATH = '/iam/v2/session/totp::confirm'
export const TOTP_DISABLE_PATH = '/iam/v2/session/totp::disable'

/** No valid session: the sign-in page answers, 401. */
export class UiSignInRequired extends Error {
  constructor(readonly problem: string | null = null) {
    super('sign in required');
  }
}

/** A form without its session's CSRF token, or from another origin: 403. */
export class UiCsrfRefused extends Error {
  constructor() {
    super('CSRF check failed');
  }
}

/** No admin token configured: the UI is closed like the API, 503. */
export class UiDisabled extends Error {
  constructor() {
    super('admin UI disabled');
  }
}

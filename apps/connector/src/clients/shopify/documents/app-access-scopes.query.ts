/** `connector doctor`'s scope check: the access scopes the connector's token carries on the shop. */
export const APP_ACCESS_SCOPES_QUERY =
  'query ConnectorAccessScopes { currentAppInstallation { accessScopes { handle } } }';

/** The shop's currency (`shop { currencyCode }`), validated against the Admin schema by a spec. */
export const SHOP_CURRENCY_QUERY = /* GraphQL */ `
  query ShopCurrency {
    shop {
      currencyCode
    }
  }
`;

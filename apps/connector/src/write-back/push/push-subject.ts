/** The product a push step is about. */
export interface PushSubject {
  shop: string;
  productId: string;
}

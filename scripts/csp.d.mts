export const CONTENT_SECURITY_POLICY: string;

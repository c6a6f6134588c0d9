/** The box's credentials as its firmware sends them: on the socket's upgrade and on firmware downloads. */
export function boxAuthorization(deviceId: string, key: string): string {
  return `Basic ${Buffer.from(`${deviceId}:${key}`).toString("base64")}`;
}

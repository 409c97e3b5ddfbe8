/** Expires every cookie the page can see at path `/`, so one test's cookies never reach the next. */
export function clearCookies(): void {
  for (const c of document.cookie.split('; ')) {
    const name = c.split('=')[0];
    if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:01 GMT`;
  }
}

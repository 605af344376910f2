"""HTTP plumbing shared by the server: the client's address, limits and the LAN address."""

"""`gen netron`: Netron metadata JSON, one file per registry domain."""

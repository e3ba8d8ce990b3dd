# tests/reliability.mk: owned by the reliability work (issue 6)

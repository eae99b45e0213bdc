"""Table Clock rules core: pure Python shared by the box, the host and the simulator."""

"""How the service runs, not what it serves: `python -m service serve` supervising Redis, the workers and gunicorn
(`serve`), the embedded redis-server and its keeper (`localredis`, `keeper`), children that die with their parent
(`lifetime`), and gunicorn's process tuning: fair turns between connections (`fairness`), workers replaced past a
memory ceiling (`recycling`) and the worker classes that answer gunicorn's own errors as problems
(`gunicorn_errors`). The command line and deploy/gunicorn.conf.py use it; nothing the service serves imports it
(the app, the API, the HTTP and job layers), but for `lifetime`, which the arena's bots and the workers' forks use."""
